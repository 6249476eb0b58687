package io.gitfn.dashboard;

import io.gitfn.api.Conditions;
import io.gitfn.api.KubernetesNames;
import io.gitfn.api.function.Function;
import io.gitfn.api.function.FunctionProgress;
import io.gitfn.api.repository.FunctionRepository;
import io.gitfn.api.repository.FunctionRepositorySpec;
import io.gitfn.api.repository.FunctionRepositoryStatus;
import io.gitfn.api.repository.PreviewOf;
import io.gitfn.api.repository.RepositoryConditionType;
import io.gitfn.api.repository.WebhookReceipt;
import java.time.Instant;
import java.util.Collection;

/**
 * One row of the overview: where a FunctionRepository reads from, which revision it fetched and which it applied,
 * its state, and how its Functions are doing.
 *
 * @param fetched the newest revision Git holds for the ref, or null before the first fetch
 * @param applied the revision whose Functions are applied, or null before the first apply
 * @param message the Ready condition's message: why it is not Ready, or what runs
 * @param lastWebhook when the last webhook delivery for it was received, or null
 * @param webhookForge which forge sent it
 * @param previewOf on a repository gitfn made for a pull request's preview ({@code spec.previewOf}): what it
 *     previews; null on any other
 */
public record RepositorySummary(String namespace, String name, String url, String ref, String path, Revision fetched,
    Revision applied, Health health, String message, Instant lastWebhook, String webhookForge,
    FunctionCounts functions, Previewed previewOf) {

  /**
   * The pull request a preview's repository applies, and the repository, in the same namespace, it belongs to.
   *
   * @param repositoryPath that repository's page, or null when its name cannot be one
   */
  public record Previewed(String repository, long pullRequest, String repositoryPath) {

    static Previewed of(String namespace, PreviewOf previewOf) {
      if (previewOf == null || previewOf.getRepository() == null || previewOf.getPullRequest() == null) {
        return null; // the CRD requires both; a repository without them previews nothing the page can name
      }
      String parent = previewOf.getRepository();
      return new Previewed(parent, previewOf.getPullRequest(), KubernetesNames.isDns1123Subdomain(parent)
          ? "/repositories/" + namespace + "/" + parent : null);
    }
  }

  /** How many of a repository's Functions run their spec, still build or roll out, or failed. */
  public record FunctionCounts(int running, int rollingOut, int failed) {

    public int total() {
      return running + rollingOut + failed;
    }

    static FunctionCounts of(Collection<Function> functions) {
      int running = 0;
      int rollingOut = 0;
      int failed = 0;
      for (Function fn : functions) {
        switch (FunctionProgress.of(fn).phase()) {
          case RUNNING, PINNED -> running++;
          case FAILED -> failed++;
          case ROLLING_OUT -> rollingOut++;
        }
      }
      return new FunctionCounts(running, rollingOut, failed);
    }
  }

  /**
   * A revision as gitfn writes it, {@code main@sha1:<40 hex>}, with the short form people compare.
   *
   * @param full the value in status
   */
  public record Revision(String full) {

    static Revision of(String value) {
      return value == null || value.isBlank() ? null : new Revision(value);
    }

    /** {@code main@sha1:0a1b2c3}: the ref and the commit's first seven digits. */
    public String shortForm() {
      int sha = full.lastIndexOf(':');
      return sha < 0 || full.length() - sha - 1 <= 7 ? full : full.substring(0, sha + 8);
    }
  }

  /** The row of {@code repository}, whose Functions (those labelled for it) are {@code functions}. */
  static RepositorySummary of(FunctionRepository repository, Collection<Function> functions) {
    FunctionRepositorySpec spec = repository.getSpec() == null ? new FunctionRepositorySpec() : repository.getSpec();
    FunctionRepositoryStatus status = repository.getStatus() == null ? new FunctionRepositoryStatus()
        : repository.getStatus();
    WebhookReceipt webhook = status.getLastWebhook();
    Health health = Boolean.TRUE.equals(spec.getSuspend()) ? Health.SUSPENDED : Health.of(status.getConditions());
    return new RepositorySummary(
        repository.getMetadata().getNamespace(),
        repository.getMetadata().getName(),
        spec.getUrl(),
        spec.getRef() == null ? null : spec.getRef().describe(),
        spec.getPath() == null ? "." : spec.getPath(),
        Revision.of(status.getLastFetchedRevision()),
        Revision.of(status.getLastAppliedRevision()),
        health,
        Conditions.message(status.getConditions(), RepositoryConditionType.READY),
        webhook == null ? null : instant(webhook.getTime()),
        webhook == null ? null : webhook.getForge(),
        FunctionCounts.of(functions),
        Previewed.of(repository.getMetadata().getNamespace(), spec.getPreviewOf()));
  }

  // The status is the controller's, but anyone with access to the status subresource may write it.
  static Instant instant(String time) {
    try {
      return time == null ? null : Instant.parse(time);
    } catch (java.time.format.DateTimeParseException e) {
      return null;
    }
  }
}
