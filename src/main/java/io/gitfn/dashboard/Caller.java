package io.gitfn.dashboard;

import java.util.List;
import java.util.Map;

/**
 * Who a bearer token belongs to, as the API server's TokenReview says: what a SubjectAccessReview asks about.
 *
 * @param extra the authenticator's extra attributes (scopes, for example), passed on to the review as they came
 */
public record Caller(String user, String uid, List<String> groups, Map<String, List<String>> extra) {}
