package io.gitfn.notify;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.URI;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * One HTTP request, ready to send: what a forge's commit-status API or a notification receiver expects.
 *
 * <p>Its {@link #toString()} masks every credential header and the URL's query, so it may be logged.
 *
 * @param method the HTTP method, such as {@code POST}
 * @param uri an absolute http(s) URL, without user info (credentials go in a header)
 * @param headers header names and values, in the order they are sent
 * @param body the body's bytes; copied in and out, so a request cannot change after it is built
 */
public record ForgeRequest(String method, URI uri, Map<String, String> headers, byte[] body) {

  private static final Set<String> CREDENTIAL_HEADERS = Set.of("authorization", "proxy-authorization", "private-token");
  // A credential shorter than this is not looked for in answers: masking it would mask ordinary words.
  private static final int SHORTEST_MASKED = 4;

  public ForgeRequest {
    Objects.requireNonNull(method, "method");
    Objects.requireNonNull(uri, "uri");
    Objects.requireNonNull(headers, "headers");
    Objects.requireNonNull(body, "body");
    String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    if (!(scheme.equals("https") || scheme.equals("http")) || uri.getHost() == null) {
      throw new IllegalArgumentException("a request needs an absolute http or https URL, not " + uri.getPath());
    }
    if (uri.getRawUserInfo() != null) {
      throw new IllegalArgumentException("a request to " + uri.getHost() + " carries user info in its URL; "
          + "credentials go in a header");
    }
    headers.forEach((name, value) -> {
      // A line break in a header would start a header of the sender's choosing.
      if (name.isBlank() || (name + value).chars().anyMatch(c -> c == '\r' || c == '\n')) {
        throw new IllegalArgumentException("header `" + name.strip() + "` has no name or a line break in it");
      }
    });
    headers = Collections.unmodifiableMap(new LinkedHashMap<>(headers));
    body = body.clone();
  }

  /** A POST of a JSON body, with its Content-Type and Accept headers set before {@code headers}. */
  static ForgeRequest postJson(URI uri, Map<String, String> headers, ObjectNode body) {
    return json("POST", uri, headers, body);
  }

  /** A request of {@code method} with a JSON body, with its Content-Type and Accept headers set before {@code headers}. */
  static ForgeRequest json(String method, URI uri, Map<String, String> headers, ObjectNode body) {
    Map<String, String> all = new LinkedHashMap<>();
    all.put("Content-Type", "application/json");
    all.put("Accept", "application/json");
    all.putAll(headers);
    return new ForgeRequest(method, uri, all, Json.bytes(body));
  }

  /** A GET without a body, with its Accept header set before {@code headers}. */
  static ForgeRequest get(URI uri, Map<String, String> headers) {
    Map<String, String> all = new LinkedHashMap<>();
    all.put("Accept", "application/json");
    all.putAll(headers);
    return new ForgeRequest("GET", uri, all, new byte[0]);
  }

  /** What the request is for messages: its method and URL, the query included (only requests that read have one). */
  String named() {
    return method + " " + uri;
  }

  @Override
  public byte[] body() {
    return body.clone();
  }

  /** The credentials this request carries, whole and without their scheme word, to mask in what a server says. */
  Set<String> credentials() {
    Set<String> credentials = new LinkedHashSet<>();
    headers.forEach((name, value) -> {
      if (credential(name)) {
        credentials.add(value.strip());
        credentials.add(value.substring(value.indexOf(' ') + 1).strip());
      }
    });
    credentials.removeIf(c -> c.length() < SHORTEST_MASKED);
    return credentials;
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof ForgeRequest r && method.equals(r.method) && uri.equals(r.uri)
        && headers.equals(r.headers) && Arrays.equals(body, r.body);
  }

  @Override
  public int hashCode() {
    return Objects.hash(method, uri, headers, Arrays.hashCode(body));
  }

  @Override
  public String toString() {
    String shownHeaders = headers.entrySet().stream()
        .map(h -> h.getKey() + ": " + (credential(h.getKey()) ? "***" : h.getValue()))
        .collect(Collectors.joining(", ", "{", "}"));
    // A receiver's URL may carry its own secret in the query (as Slack's and Teams' do).
    String shownUri = uri.getRawQuery() == null ? uri.toString() : uri.toString().replace(uri.getRawQuery(), "***");
    return method + " " + shownUri + " " + shownHeaders + " (" + body.length + " bytes)";
  }

  private static boolean credential(String header) {
    return CREDENTIAL_HEADERS.contains(header.toLowerCase(Locale.ROOT));
  }
}
