package io.gitfn.controller;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.gitfn.api.Annotations;
import io.gitfn.api.FieldManagers;
import io.gitfn.api.repository.FunctionRepository;
import io.gitfn.build.BuildSettings;
import io.gitfn.controller.cache.LeanItemStore;
import io.gitfn.controller.cache.ListPages;
import io.gitfn.controller.leader.LeaderPod;
import io.gitfn.controller.leader.Leadership;
import io.gitfn.dashboard.BuildLogs;
import io.gitfn.dashboard.ClusterActions;
import io.gitfn.dashboard.DashboardServer;
import io.gitfn.dashboard.RecentEvents;
import io.gitfn.events.EventRecorder;
import io.gitfn.health.Watchdog;
import io.gitfn.reconcile.ControllerSettings;
import io.gitfn.reconcile.Requeue;
import io.gitfn.reconcile.ShardSelector;
import io.gitfn.server.OperationsServer.Check;
import io.gitfn.server.OperationsServer;
import io.gitfn.source.Backoff;
import io.gitfn.source.MirrorCache;
import io.gitfn.source.SourceSettings;
import io.gitfn.trigger.SourceMetrics;
import io.gitfn.trigger.SourceWatcher;
import io.gitfn.trigger.webhook.WebhookReceiver;
import io.gitfn.trigger.webhook.WebhookServer;
import io.gitfn.trigger.webhook.WebhookSettings;
import io.gitfn.workload.WorkloadSettings;
import io.javaoperatorsdk.operator.Operator;
import io.javaoperatorsdk.operator.RuntimeInfo;
import io.javaoperatorsdk.operator.api.config.ControllerConfigurationOverrider;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * gitfn's controller, put together: the composition root. {@link #start} builds its parts in order (the JVM's
 * metrics, leadership, the Git watcher and its mirrors, the reconcilers and what they share, the webhook receiver,
 * the operator, the operations server, the dashboard) and closes those it made when a later one fails.
 * {@code gitfn controller} runs one; tests start one against the test bed.
 */
public final class Controller implements AutoCloseable {

  static final int RECONCILE_THREADS = 10;
  static final int CHECK_THREADS = 64;

  private static final Logger log = LoggerFactory.getLogger(Controller.class);

  private final KubernetesClient client;
  private final MirrorCache mirrors;
  private final SourceWatcher watcher;
  private final WebhookServer webhooks;
  private final OperationsServer operations;
  private final Operator operator;
  private final Leadership leadership;
  private final Watchdog watchdog;
  private final Reconcilers reconcilers;
  private final Optional<DashboardServer> dashboard;

  private Controller(KubernetesClient client, MirrorCache mirrors, SourceWatcher watcher, WebhookServer webhooks,
      OperationsServer operations, Operator operator, Leadership leadership, Watchdog watchdog,
      Reconcilers reconcilers, Optional<DashboardServer> dashboard) {
    this.dashboard = dashboard;
    this.watchdog = watchdog;
    this.reconcilers = reconcilers;
    this.client = client;
    this.mirrors = mirrors;
    this.watcher = watcher;
    this.webhooks = webhooks;
    this.operations = operations;
    this.operator = operator;
    this.leadership = leadership;
  }

  /**
   * Starts a controller that also builds and runs Functions with the given settings, as the only instance, with
   * health on a free loopback port and metrics that nobody scrapes.
   *
   * @param webhookHost and {@code webhookPort}: where the receiver listens (port 0 picks a free one)
   */
  public static Controller start(KubernetesClient client, SourceSettings sources, WebhookSettings webhookSettings,
      ControllerSettings settings, BuildSettings builds, WorkloadSettings workloads, String webhookHost,
      int webhookPort) throws Exception {
    return start(client, sources, webhookSettings, settings, builds, workloads, webhookHost, webhookPort,
        OperationSettings.defaults(), new SimpleMeterRegistry(),
        () -> log.error("the controller cannot go on; it keeps running only because it was started in-process"));
  }

  /**
   * Starts a controller.
   *
   * @param meters where every gitfn metric is registered; a {@code PrometheusMeterRegistry} is served on {@code
   *     /metrics}
   * @param fatal runs when the controller cannot go on (it lost its Lease, or an informer stopped); {@code gitfn
   *     controller} stops the process, which Kubernetes then restarts
   */
  public static Controller start(KubernetesClient client, SourceSettings sources, WebhookSettings webhookSettings,
      ControllerSettings settings, BuildSettings builds, WorkloadSettings workloads, String webhookHost,
      int webhookPort, OperationSettings ops, MeterRegistry meters, Runnable fatal) throws Exception {
    Clock clock = Clock.systemUTC();
    AtomicReference<String> failure = new AtomicReference<>();
    bindJvmMetrics(meters);
    Leadership leadership = leadership(client, ops, fatal);
    MirrorCache mirrors = new MirrorCache(sources);
    Watchdog watchdog = new Watchdog(clock).checkEvery(Duration.ofSeconds(1));
    SourceWatcher watcher = watcher(mirrors, sources, clock, meters, watchdog);
    Reconcilers reconcilers = Reconcilers.of(client, watcher, mirrors, settings, builds, workloads, clock, meters);
    WebhookServer webhooks = WebhookServer.start(webhookHost, webhookPort,
        new WebhookReceiver(watcher.webhookTargets(), reconcilers.previews(), webhookSettings, clock, meters, leadership::leading));
    Operator operator = operator(client, reconcilers, settings, ops, watchdog, leadership, meters, error -> {
      // The SDK's default exits the JVM; gitfn reports it on /healthz and lets its caller stop.
      if (failure.compareAndSet(null, "an informer stopped: " + error.getMessage())) {
        log.error("an informer stopped; the controller cannot see the cluster any more", error);
        fatal.run();
      }
    });
    OperationsServer operations;
    try {
      // Before the operator starts, which waits for its caches: /healthz answers, /readyz says why not yet.
      operations = OperationsServer.start(ops.metricsHost(), ops.metricsPort(),
          () -> health(failure.get(), watchdog),
          () -> readiness(operator, leadership), meters);
    } catch (Exception e) {
      try (watchdog; mirrors; watcher; webhooks; reconcilers) {
        throw e;
      }
    }
    try {
      operator.start();
    } catch (RuntimeException e) {
      try (watchdog; mirrors; watcher; webhooks; operations; reconcilers) {
        throw e;
      }
    }
    log.info("reconciling {} as {}{}", settings.shard().isAll() ? "every FunctionRepository and Function"
        : "FunctionRepositories and Functions labelled " + settings.shard(), settings.instance(),
        ops.leaderElection().map(e -> ", once it holds Lease " + e.namespace() + "/" + e.leaseName()).orElse(""));
    Optional<DashboardServer> dashboard;
    try {
      dashboard = dashboard(client, reconcilers, settings, ops, clock);
    } catch (Exception e) {
      try (watchdog; mirrors; watcher; webhooks; operations; reconcilers) {
        operator.stop();
        throw e;
      }
    }
    return new Controller(client, mirrors, watcher, webhooks, operations, operator, leadership, watchdog,
        reconcilers, dashboard);
  }

  /** The JVM's own figures (heap and non-heap by pool, threads, classes, CPU), which sizing is read from. */
  private static void bindJvmMetrics(MeterRegistry meters) {
    new JvmMemoryMetrics().bindTo(meters);
    new JvmThreadMetrics().bindTo(meters);
    new ClassLoaderMetrics().bindTo(meters);
    new ProcessorMetrics().bindTo(meters);
  }

  private static Leadership leadership(KubernetesClient client, OperationSettings ops, Runnable fatal) {
    Optional<LeaderPod> pod = ops.leaderElection().flatMap(e -> LeaderPod.fromEnvironment(client, e));
    pod.ifPresent(LeaderPod::unmark); // a container restarted in the old leader's Pod leads no more
    return new Leadership(ops.leaderElection(), pod, fatal);
  }

  /**
   * The Git watcher. Each reconciler tells it, source by source, whom to wake when a source moves. A slow Git server
   * holds one check thread until --git-timeout, so there are many, and idle ones end. A check makes an ls-remote
   * and a fetch or a few, each within --git-timeout: one that runs five times that long is stuck.
   */
  private static SourceWatcher watcher(MirrorCache mirrors, SourceSettings sources, Clock clock, MeterRegistry meters,
      Watchdog watchdog) {
    return new SourceWatcher(mirrors, clock, Backoff.DEFAULT, CHECK_THREADS, new SourceMetrics(meters), watchdog,
        sources.timeout().multipliedBy(5));
  }

  /**
   * The Java Operator SDK with both reconcilers registered. Passes wait on the API server, not the CPU, and builds
   * are capped at 5 anyway: ten threads each for reconciles and for workflows keep every Function moving, where the
   * SDK's defaults hold fifty idle stacks. A pass that failed in a way that may pass is retried with backoff and
   * without a limit ({@link Requeue#backoff}).
   */
  private static Operator operator(KubernetesClient client, Reconcilers reconcilers, ControllerSettings settings,
      OperationSettings ops, Watchdog watchdog, Leadership leadership, MeterRegistry meters,
      java.util.function.Consumer<Exception> informerStopped) {
    Operator operator = new Operator(o -> {
      o.withKubernetesClient(client).withCloseClientOnStop(false)
          .withConcurrentReconciliationThreads(RECONCILE_THREADS)
          .withConcurrentWorkflowExecutorThreads(RECONCILE_THREADS)
          .withMetrics(new WatchedReconciles(new ReconcileMetrics(meters), watchdog, WatchedReconciles.BUDGET))
          .withReconciliationTerminationTimeout(ops.shutdownTimeout())
          .withInformerStoppedHandler((informer, error) -> {
            if (error != null) {
              informerStopped.accept(error instanceof Exception e ? e : new RuntimeException(error));
            }
          });
      leadership.configuration().ifPresent(o::withLeaderElectionConfiguration);
    });
    // Spec changes, manual requests, deletion and the SDK's own finalizer start a pass; status writes do not.
    operator.register(reconcilers.repositories(), o -> shard(o, settings.shard()).withGenerationAware(false)
        .withRetry(Requeue.backoff())
        .withOnUpdateFilter((updated, old) ->
        !Objects.equals(updated.getMetadata().getGeneration(), old.getMetadata().getGeneration())
            || !requestedAt(updated).equals(requestedAt(old))
            || !Objects.equals(updated.getMetadata().getFinalizers(), old.getMetadata().getFinalizers())
            || updated.getMetadata().getDeletionTimestamp() != null));
    // The same for Functions, whose annotations ask for a rebuild or pin a revision.
    operator.register(reconcilers.functions(), o -> ChildInformers.narrow(shard(o, settings.shard()),
            settings.shard())
        .withFieldManager(FieldManagers.FUNCTION_CONTROLLER).withRetry(Requeue.backoff())
        .withItemStore(new LeanItemStore<>()).withGenerationAware(false).withOnUpdateFilter((updated, old) ->
        !Objects.equals(updated.getMetadata().getGeneration(), old.getMetadata().getGeneration())
            || !Objects.equals(updated.getMetadata().getAnnotations(), old.getMetadata().getAnnotations())
            || !Objects.equals(updated.getMetadata().getFinalizers(), old.getMetadata().getFinalizers())
            || updated.getMetadata().getDeletionTimestamp() != null));
    return operator;
  }

  /** The dashboard, when {@code ops} asks for one: it reads the informer caches, and acts only with actions on. */
  private static Optional<DashboardServer> dashboard(KubernetesClient client, Reconcilers reconcilers,
      ControllerSettings settings, OperationSettings ops, Clock clock) throws Exception {
    if (!ops.dashboard()) {
      return Optional.empty();
    }
    return Optional.of(DashboardServer.start(ops.dashboardHost(), ops.dashboardPort(),
        new CachedState(reconcilers.repositories(), reconcilers.caches()), new RecentEvents(client, clock),
        new BuildLogs(client, clock), ops.dashboardActions()
            ? Optional.of(new ClusterActions(client, clock, new EventRecorder(client, clock, settings.instance())))
            : Optional.empty()));
  }

  /** Unhealthy once an informer stopped, or while a reconcile or a Git check is stuck past its budget. */
  private static Check health(String failure, Watchdog watchdog) {
    if (failure != null) {
      return new Check(false, failure);
    }
    return watchdog.stuck().map(stuck -> new Check(false, stuck)).orElse(new Check(true, "ok"));
  }

  /**
   * Both instances of an election are ready once their caches are in sync: the standby's warm caches are what let
   * it take over at once, and a standby that never turned Ready would hold up every rollout of the Deployment.
   */
  private static Check readiness(Operator operator, Leadership leadership) {
    RuntimeInfo runtime = operator.getRuntimeInfo();
    if (!runtime.isStarted()) {
      return new Check(false, "starting: the informers are not in sync yet");
    }
    if (!runtime.allEventSourcesAreHealthy()) {
      return new Check(false, "unhealthy event sources: " + runtime.unhealthyEventSources().keySet());
    }
    return new Check(true, leadership.leading() ? "ok" : "ok (standby)");
  }

  private static <R extends io.fabric8.kubernetes.api.model.HasMetadata> ControllerConfigurationOverrider<R> shard(
      ControllerConfigurationOverrider<R> overrider, ShardSelector shard) {
    overrider.withInformerListLimit(ListPages.SIZE);
    // Informers list and watch with the selector: another shard's objects never reach this instance.
    return shard.isAll() ? overrider : overrider.withLabelSelector(shard.expression());
  }

  private static Optional<String> requestedAt(FunctionRepository repository) {
    return Annotations.get(repository, Annotations.REQUESTED_AT);
  }

  /** The webhook receiver's base, ending in {@code /hooks/}. */
  public URI webhookUri() {
    return webhooks.baseUri();
  }

  /** Where {@code /healthz}, {@code /readyz} and {@code /metrics} are served, ending in {@code /}. */
  public URI operationsUri() {
    return operations.baseUri();
  }

  /** Where the dashboard is served, ending in {@code /}; empty when it is off. */
  public Optional<URI> dashboardUri() {
    return dashboard.map(DashboardServer::baseUri);
  }

  /** Whether this instance leads (always, without leader election). */
  public boolean leading() {
    return leadership.leading();
  }

  /**
   * Stops gracefully: no new events are taken, running reconciles get up to the shutdown timeout to finish, the
   * Lease is released so the standby takes over at once, then the watcher, mirrors and servers close.
   */
  @Override
  public void close() throws Exception {
    leadership.stopping();
    try (watchdog; mirrors; watcher; webhooks; operations; reconcilers) {
      if (dashboard.isPresent()) {
        dashboard.get().close(); // first: its pages read the caches the operator is about to drop
      }
      operator.stop();
      leadership.release(client);
    }
  }
}
