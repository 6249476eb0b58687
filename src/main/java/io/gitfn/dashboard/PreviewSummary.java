package io.gitfn.dashboard;

import io.gitfn.api.KubernetesNames;
import io.gitfn.api.repository.Preview;
import java.time.Instant;
import java.util.Locale;
import java.util.Objects;

/**
 * One active preview of a pull request, as its repository's page lists it ({@code status.previews}).
 *
 * @param number the pull request's number, or null when the status does not say
 * @param headSha the head commit the preview applies, in full
 * @param repositoryPath the page of the FunctionRepository gitfn made for it, beside its parent:
 *     {@code /repositories/<namespace>/<name>}, or null when the status names none that can be a page
 * @param repository that repository's name, as the status has it
 * @param namespace the namespace the preview runs in
 * @param phase Pending, Running, Failed, Stopped or Removed; Unknown when the status does not say
 * @param createdAt when gitfn made it, or null when the status does not say or says what is not a time
 * @param pushedAt when it last got a new head commit, or null likewise
 */
public record PreviewSummary(Long number, String headRef, String headSha, String namespace, String repository,
    String repositoryPath, String url, String phase, String message, Instant createdAt, Instant pushedAt) {

  /** {@code preview} of a repository in {@code namespace}. */
  static PreviewSummary of(String namespace, Preview preview) {
    String repository = preview.getRepository();
    return new PreviewSummary(
        preview.getNumber(),
        preview.getHeadRef(),
        preview.getHeadSha(),
        preview.getNamespace(),
        repository,
        repository != null && KubernetesNames.isDns1123Subdomain(repository)
            ? "/repositories/" + namespace + "/" + repository : null,
        preview.getUrl(),
        Objects.requireNonNullElse(preview.getPhase(), "Unknown"),
        preview.getMessage(),
        RepositorySummary.instant(preview.getCreatedAt()),
        RepositorySummary.instant(preview.getPushedAt()));
  }

  /** {@code #12}, as the forge writes a pull request. */
  public String pullRequest() {
    return number == null ? "#?" : "#" + number;
  }

  /** The head commit's first seven digits, or null. */
  public String shortSha() {
    return headSha == null || headSha.length() <= 7 ? headSha : headSha.substring(0, 7);
  }

  /**
   * The URL to link to, or null when it is not a web address: the status is the controller's, but anyone who may
   * write the status subresource may write it, and a {@code javascript:} link would run on the dashboard's origin.
   */
  public String link() {
    if (url == null) {
      return null;
    }
    String scheme = url.toLowerCase(Locale.ROOT);
    return scheme.startsWith("http://") || scheme.startsWith("https://") ? url : null;
  }

  /** The CSS class of its phase's badge: the repository's words for the same states. */
  public String css() {
    return switch (phase == null ? "" : phase) {
      case "Running" -> "ready";
      case "Failed" -> "failed";
      case "Pending" -> "reconciling";
      case "Stopped", "Removed" -> "suspended";
      default -> "unknown";
    };
  }
}
