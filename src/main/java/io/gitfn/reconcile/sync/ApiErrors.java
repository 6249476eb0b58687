package io.gitfn.reconcile.sync;

import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.Set;
import java.util.regex.Pattern;

/** Reads what the API server said when it refused a request. */
final class ApiErrors {

  // Invalid (a CEL rule, the schema), BadRequest, Forbidden (RBAC, an admission webhook), NotFound (a missing
  // namespace), Conflict: the same request will fail again until someone changes something.
  private static final Set<Integer> REJECTIONS = Set.of(400, 403, 404, 409, 422);
  private static final Pattern USER_INFO = Pattern.compile("(?<=://)[^/@\\s]+@");

  /** Whether the server rejected the object itself, rather than failing to answer. */
  static boolean isRejection(KubernetesClientException e) {
    return REJECTIONS.contains(e.getCode());
  }

  /**
   * The server's own message when it sent a Status ("... spec.source: Invalid value: "object": Use GitRepository
   * or Inline source"), else the client's, with any credentials in a URL removed.
   */
  static String message(KubernetesClientException e) {
    String message =
        e.getStatus() != null && e.getStatus().getMessage() != null && !e.getStatus().getMessage().isBlank()
            ? e.getStatus().getMessage()
            : String.valueOf(e.getMessage());
    return USER_INFO.matcher(message).replaceAll("");
  }

  private ApiErrors() {}
}
