package io.gitfn.reconcile;

import static io.gitfn.api.repository.RepositoryConditionReason.INVALID_SECRET;
import static io.gitfn.api.repository.RepositoryConditionReason.INVALID_SPEC;
import static io.gitfn.api.repository.RepositoryConditionReason.INVALID_URL;
import static io.gitfn.api.repository.RepositoryConditionReason.SECRET_NOT_FOUND;
import static io.gitfn.api.repository.RepositoryConditionReason.SECRET_UNREADABLE;

import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.gitfn.source.GitCredentials;
import io.gitfn.source.RefSelector;
import io.gitfn.source.RepositoryUrl;
import io.gitfn.source.SourceException;
import io.gitfn.trigger.SourceEvents;
import io.gitfn.trigger.SourceId;
import io.gitfn.trigger.SourceState;
import io.gitfn.trigger.SourceWatcher;
import io.gitfn.trigger.TrackedSource;
import java.time.Clock;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Binds a resource's Git spec to a source the {@link SourceWatcher} tracks, the same way for FunctionRepositories
 * and Git-sourced Functions: the URL and ref parsed, credentials read from the resource's Secret, a listener that
 * wakes the resource when its source moves or fails, and manual requests ({@code gitfn.io/requested-at}) passed on
 * as checks. A spec or Secret only a person can fix is a {@link StepFailure.Stalled} naming the field; a Secret the
 * API server could not hand over just now is a {@link StepFailure.Retry}.
 *
 * <p>It remembers, per source, the manual request it passed on and when: after a restart a request not yet answered
 * is passed on once more, which costs one more check of Git.
 */
public final class SourceBinding {

  private final KubernetesClient client;
  private final SourceWatcher watcher;
  private final String knownHosts;
  private final GitHosts gitHosts;
  private final Clock clock;
  private final SourceEvents listener;
  private final Map<SourceId, Request> requests = new ConcurrentHashMap<>();

  /**
   * @param settings the controller's SSH host keys, for Secrets that bring none, and the Git hosts it may reach
   * @param wake reconciles the resource a source belongs to; its pass reads what the watcher knows with
   *     {@link #state}
   */
  public SourceBinding(KubernetesClient client, SourceWatcher watcher, ControllerSettings settings, Clock clock,
      Consumer<SourceId> wake) {
    this.client = client;
    this.watcher = watcher;
    this.knownHosts = settings.knownHosts();
    this.gitHosts = settings.gitHosts();
    this.clock = clock;
    this.listener = SourceEvents.wakeUp(wake);
  }

  /** The repository URL a spec field holds, on a host the controller may fetch from. */
  public RepositoryUrl url(String field, String text) throws StepFailure.Stalled {
    RepositoryUrl url;
    try {
      url = RepositoryUrl.parse(text);
    } catch (IllegalArgumentException | NullPointerException e) {
      throw StepFailure.stalled(INVALID_URL, field + ": " + e.getMessage());
    }
    if (!gitHosts.allows(url.host())) {
      throw StepFailure.stalled(INVALID_URL, field + ": host " + url.host() + " is not one this controller"
          + " may fetch from (--allowed-git-host: " + gitHosts + ")");
    }
    return url;
  }

  /** The ref a spec field names, as {@code parse} reads it. */
  public static RefSelector ref(String field, Supplier<RefSelector> parse) throws StepFailure.Stalled {
    try {
      return parse.get();
    } catch (IllegalArgumentException | NullPointerException e) {
      throw StepFailure.stalled(INVALID_SPEC, field + ": " + e.getMessage());
    }
  }

  /** The decoded data of the Secret that {@code field} names in {@code namespace}. */
  public Map<String, String> secret(String namespace, String name, String field) throws StepFailure {
    return secret(client, namespace, name, field);
  }

  /**
   * The decoded data of the Secret that {@code field} names in {@code namespace}, read with {@code client}. A
   * Secret that is missing, unusable or not the controller's to read (RBAC) stalls; one the API server could not
   * hand over just now (it is away, throttles or fails) is retried.
   */
  public static Map<String, String> secret(KubernetesClient client, String namespace, String name, String field)
      throws StepFailure {
    if (name == null || name.isBlank()) {
      throw StepFailure.stalled(INVALID_SECRET, field + " names no Secret");
    }
    Secret secret;
    try {
      secret = client.secrets().inNamespace(namespace).withName(name).get();
    } catch (KubernetesClientException e) {
      String message = field + ": cannot read Secret " + namespace + "/" + name + ": " + Failures.message(e);
      throw Failures.refused(e) ? StepFailure.stalled(SECRET_UNREADABLE, message)
          : StepFailure.retry(SECRET_UNREADABLE, message + "; retried with backoff", e);
    }
    if (secret == null) {
      throw StepFailure.stalled(SECRET_NOT_FOUND, field + ": Secret " + namespace + "/" + name + " not found");
    }
    try {
      return SecretData.of(secret);
    } catch (IllegalArgumentException e) {
      throw StepFailure.stalled(INVALID_SECRET, field + ": " + e.getMessage());
    }
  }

  /** Whether the Secret is at fault (missing, unreadable or unusable) rather than the spec. */
  public static boolean aboutSecret(StepFailure failure) {
    String reason = failure.reason();
    return reason.equals(SECRET_NOT_FOUND) || reason.equals(SECRET_UNREADABLE) || reason.equals(INVALID_SECRET);
  }

  /** Git credentials of {@code authType} ({@code basic} or {@code key}) from a Secret's data. */
  public GitCredentials credentials(String authType, Map<String, String> data, String field)
      throws StepFailure.Stalled {
    try {
      return GitCredentials.fromSecret(authType, data, knownHosts);
    } catch (SourceException e) {
      throw StepFailure.stalled(INVALID_SECRET, field + ": " + e.getMessage());
    }
  }

  /** Makes sure the watcher tracks {@code source}; cheap when nothing about it changed. */
  public TrackedSource track(TrackedSource source) {
    watcher.track(source, listener);
    return source;
  }

  /** Stops tracking the source of a resource that is gone or no longer has one. */
  public void untrack(SourceId id) {
    watcher.untrack(id);
    requests.remove(id);
  }

  /** What the watcher knows of a source: its last good revision, its last error, the last webhook. */
  public SourceState state(SourceId id) {
    return watcher.state(id);
  }

  /**
   * Passes a manual request on as a check of the source, once per value, as {@code flux reconcile} does. Returns
   * true once the request is answered: a check that started after it finished, so that whatever the pass then
   * applies is Git's answer to the request.
   */
  public boolean request(SourceId id, String value) {
    Request known = requests.get(id);
    Request pending = known != null && known.value().equals(value) ? known : new Request(value, clock.instant());
    if (pending != known) {
      requests.put(id, pending);
      watcher.trigger(id, "requested at " + value); // the check's answer wakes the resource again
    }
    return watcher.state(id).checkedAt().filter(checked -> !checked.isBefore(pending.at())).isPresent();
  }

  /** Forgets a request once the resource recorded it as handled. */
  public void handled(SourceId id) {
    requests.remove(id);
  }

  /** A request being acted on: its annotation value, and when the check it asked for was requested. */
  private record Request(String value, Instant at) {}
}
