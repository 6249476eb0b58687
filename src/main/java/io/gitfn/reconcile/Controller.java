package io.gitfn.reconcile;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.gitfn.api.repository.FunctionRepository;
import io.gitfn.build.BuildQueue;
import io.gitfn.build.BuildSettings;
import io.gitfn.manifest.ManifestOptions;
import io.gitfn.manifest.ManifestReader;
import io.gitfn.source.Backoff;
import io.gitfn.source.MirrorCache;
import io.gitfn.source.Revision;
import io.gitfn.source.SourceException;
import io.gitfn.source.SourceSettings;
import io.gitfn.trigger.SourceEvents;
import io.gitfn.trigger.SourceId;
import io.gitfn.trigger.SourceWatcher;
import io.gitfn.trigger.webhook.WebhookReceiver;
import io.gitfn.trigger.webhook.WebhookServer;
import io.gitfn.trigger.webhook.WebhookSettings;
import io.gitfn.workload.WorkloadSettings;
import io.javaoperatorsdk.operator.Operator;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;

/**
 * gitfn's controller, put together: the source watcher and its mirrors, the webhook receiver, and the
 * Java Operator SDK running the FunctionRepository and Function reconcilers. {@code gitfn controller} runs one; tests
 * start one against the test bed.
 */
public final class Controller implements AutoCloseable {

  static final int RECONCILE_THREADS = 10;

  private final MirrorCache mirrors;
  private final SourceWatcher watcher;
  private final WebhookServer webhooks;
  private final Operator operator;

  private Controller(MirrorCache mirrors, SourceWatcher watcher, WebhookServer webhooks, Operator operator) {
    this.mirrors = mirrors;
    this.watcher = watcher;
    this.webhooks = webhooks;
    this.operator = operator;
  }

  /**
   * Starts a controller.
   *
   * @param webhookHost and {@code webhookPort}: where the receiver listens (port 0 picks a free one)
   */
  public static Controller start(KubernetesClient client, SourceSettings sources, WebhookSettings webhookSettings,
      ControllerSettings settings, String webhookHost, int webhookPort) throws Exception {
    return start(client, sources, webhookSettings, settings, BuildSettings.defaults(), WorkloadSettings.defaults(),
        webhookHost, webhookPort);
  }

  /**
   * Starts a controller that also builds and runs Functions with the given settings.
   *
   * @param webhookHost and {@code webhookPort}: where the receiver listens (port 0 picks a free one)
   */
  public static Controller start(KubernetesClient client, SourceSettings sources, WebhookSettings webhookSettings,
      ControllerSettings settings, BuildSettings builds, WorkloadSettings workloads, String webhookHost,
      int webhookPort) throws Exception {
    Clock clock = Clock.systemUTC();
    MirrorCache mirrors = new MirrorCache(sources);
    // The watcher reports to the reconciler, which needs the watcher: a forwarding reference closes the loop.
    AtomicReference<SourceEvents> repositoryEvents = new AtomicReference<>();
    AtomicReference<FunctionReconciler> functions = new AtomicReference<>();
    SourceWatcher watcher = new SourceWatcher(mirrors, new SourceEvents() {
      // A Function only needs waking: its pass reads the watcher's state.
      @Override
      public void revision(SourceId source, Revision revision, String cause) {
        if (source.kind().equals(FunctionSource.KIND)) {
          functions.get().wake(source.namespace(), source.name());
        } else {
          repositoryEvents.get().revision(source, revision, cause);
        }
      }

      @Override
      public void failed(SourceId source, SourceException error, Duration retryIn) {
        if (source.kind().equals(FunctionSource.KIND)) {
          functions.get().wake(source.namespace(), source.name());
        } else {
          repositoryEvents.get().failed(source, error, retryIn);
        }
      }
    }, clock, Backoff.DEFAULT, 4);
    FunctionRepositoryReconciler reconciler = new FunctionRepositoryReconciler(client, watcher, mirrors,
        new ManifestReader(ManifestOptions.defaults()), settings, clock);
    repositoryEvents.set(reconciler);
    functions.set(new FunctionReconciler(client, watcher, mirrors, builds, new BuildQueue(builds.concurrency()),
        workloads, settings, clock));
    WebhookServer webhooks = WebhookServer.start(webhookHost, webhookPort,
        new WebhookReceiver(watcher.webhookTargets(), webhookSettings, clock));
    // Passes wait on the API server, not the CPU, and builds are capped at 5 anyway: ten threads each for
    // reconciles and for workflows keep every Function moving, where the SDK's defaults hold fifty idle stacks.
    Operator operator = new Operator(o -> o.withKubernetesClient(client).withCloseClientOnStop(false)
        .withConcurrentReconciliationThreads(RECONCILE_THREADS).withConcurrentWorkflowExecutorThreads(RECONCILE_THREADS));
    // Spec changes, manual requests, deletion and the SDK's own finalizer start a pass; status writes do not.
    operator.register(reconciler, o -> o.withGenerationAware(false).withOnUpdateFilter((updated, old) ->
        !Objects.equals(updated.getMetadata().getGeneration(), old.getMetadata().getGeneration())
            || !Objects.equals(requestedAt(updated), requestedAt(old))
            || !Objects.equals(updated.getMetadata().getFinalizers(), old.getMetadata().getFinalizers())
            || updated.getMetadata().getDeletionTimestamp() != null));
    // The same for Functions, whose annotations ask for a rebuild or pin a revision.
    operator.register(functions.get(), o -> o.withFieldManager(FunctionReconciler.FIELD_MANAGER)
        .withItemStore(new LeanItemStore<>()).withGenerationAware(false).withOnUpdateFilter((updated, old) ->
        !Objects.equals(updated.getMetadata().getGeneration(), old.getMetadata().getGeneration())
            || !Objects.equals(updated.getMetadata().getAnnotations(), old.getMetadata().getAnnotations())
            || !Objects.equals(updated.getMetadata().getFinalizers(), old.getMetadata().getFinalizers())
            || updated.getMetadata().getDeletionTimestamp() != null));
    operator.start();
    return new Controller(mirrors, watcher, webhooks, operator);
  }

  private static String requestedAt(FunctionRepository repository) {
    var annotations = repository.getMetadata().getAnnotations();
    return annotations == null ? null : annotations.get(FunctionRepositoryReconciler.REQUESTED_AT);
  }

  /** The webhook receiver's base, ending in {@code /hooks/}. */
  public URI webhookUri() {
    return webhooks.baseUri();
  }

  @Override
  public void close() throws Exception {
    try (mirrors; watcher; webhooks) {
      operator.stop();
    }
  }
}
