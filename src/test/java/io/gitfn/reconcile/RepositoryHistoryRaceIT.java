package io.gitfn.reconcile;

import static io.gitfn.api.function.FunctionRuntime.NODEJS22;
import static io.gitfn.reconcile.Repositories.function;
import static io.gitfn.reconcile.Repositories.gitSecret;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.kubernetes.client.http.AsyncBody;
import io.fabric8.kubernetes.client.http.Interceptor;
import io.gitfn.api.Conditions;
import io.gitfn.api.repository.FunctionRepository;
import io.gitfn.api.repository.FunctionRepositoryStatus;
import io.gitfn.api.repository.SyncRecord;
import io.gitfn.controller.Controller;
import io.gitfn.source.SourceSettings;
import io.gitfn.testbed.KubeTestBed;
import io.gitfn.testbed.TestNamespace;
import io.gitfn.testbed.WithKubeCluster;
import io.gitfn.testbed.git.BareRepository;
import io.gitfn.testbed.git.GitClient;
import io.gitfn.testbed.git.GitHttpServer;
import io.gitfn.testbed.git.GitServers;
import io.gitfn.testbed.git.WorkingCopy;
import io.gitfn.trigger.webhook.WebhookSettings;
import io.gitfn.workload.WorkloadSettings;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A revision's counts survive the passes that follow it, however late the informer is.
 *
 * <p>A pass applies a revision and records it in {@code status.history} with what it created, updated and deleted.
 * The passes that follow come at once (each step of a Function's rollout wakes its repository), and they may read the
 * FunctionRepository from an informer that has not yet heard of that status write. Here the controller's watch of
 * FunctionRepositories is held {@link #LATENESS} behind the API server, while everything else it reads and writes
 * goes at normal speed; a watch of the test's own, on time, sees every status the controller writes after the apply.
 * None of them may record the revision again, nor with other counts.
 */
@WithKubeCluster
@ExtendWith(GitServers.class)
class RepositoryHistoryRaceIT {

  private static final Duration WAIT = Duration.ofSeconds(90);
  private static final Duration LATENESS = Duration.ofSeconds(3);
  // Its own shard, so that the controller sees none of the repositories other test classes left in the cluster.
  private static final String SHARD = "history-race-it";
  private static final String TOKEN = "s3cret";

  @Test
  void aRevisionsCountsSurviveThePassesThatFollowItHoweverLateTheInformerIs(KubeTestBed bed, KubernetesClient client,
      TestNamespace ns, GitHttpServer http, BareRepository repository, GitClient git) throws Exception {
    WorkingCopy copy = git.clone(http.url(repository.name()));
    String first = "main@sha1:" + copy.write("functions/hello.yaml", function("hello", NODEJS22, "v1").toYaml())
        .write("functions/bye.yaml", function("bye", NODEJS22, "v1").toYaml()).commit("two functions");
    copy.push();
    gitSecret(client, ns.name(), http);
    client.secrets().inNamespace(ns.name()).resource(new SecretBuilder().withNewMetadata().withName("hook")
        .endMetadata().addToStringData("token", TOKEN).build()).create();
    bed.installCrds();

    try (LateRepositoryWatch late = new LateRepositoryWatch();
        KubernetesClient controllerClient = late.client(bed);
        Controller controller = Controller.start(controllerClient,
            SourceSettings.defaults(Files.createTempDirectory("gitfn-history-race-mirrors")),
            WebhookSettings.defaults(), ControllerSettings.defaults()
                .withShard(ShardSelector.parse("--shard-selector", "gitfn.io/shard=" + SHARD), SHARD),
            bed.layeredBuilds().settings(), WorkloadSettings.defaults(), "127.0.0.1", 0)) {
      // Hourly checks: only the webhook brings the second commit in, and it does not go through the watch.
      client.resource(client.getKubernetesSerialization().unmarshal("---\n{apiVersion: gitfn.io/v1alpha1, kind: "
          + "FunctionRepository, metadata: {name: infra, namespace: " + ns.name() + ", labels: {gitfn.io/shard: "
          + SHARD + "}}, spec: {url: '" + http.url(repository.name()) + "', ref: {branch: main}, path: functions,"
          + " interval: 1h, secretRef: {name: git}, webhook: {secretRef: {name: hook}}}}", FunctionRepository.class))
          .create();
      await().atMost(WAIT).until(() -> runs(get(client, ns), first) && late.holding() == 0);

      List<Written> written = new CopyOnWriteArrayList<>();
      List<WatcherException> closed = new CopyOnWriteArrayList<>();
      try (Watch ignored = client.resources(FunctionRepository.class).inNamespace(ns.name()).withName("infra")
          .watch(new ListOptionsBuilder().withResourceVersion(get(client, ns).getMetadata().getResourceVersion())
              .build(), new Watcher<>() {
                @Override
                public void eventReceived(Action action, FunctionRepository resource) {
                  written.add(new Written(resource.getMetadata().getResourceVersion(), Instant.now(),
                      Optional.ofNullable(resource.getStatus()).orElseGet(FunctionRepositoryStatus::new)));
                }

                @Override
                public void onClose(WatcherException cause) {
                  closed.add(cause);
                }
              })) {
        late.holdBack(LATENESS);
        copy.write("functions/hello.yaml", function("hello", NODEJS22, "v2").toYaml());
        copy.git("rm", "-q", "functions/bye.yaml");
        String second = "main@sha1:" + copy.commit("change hello, remove bye");
        copy.push();
        HttpResponse<String> delivery = push(controller.webhookUri(), http.url(repository.name()),
            second.substring("main@sha1:".length()), "delivery-" + ns.name());
        assertThat(delivery.statusCode()).as(delivery.body()).isEqualTo(202);

        await().atMost(WAIT).until(() -> written.stream().anyMatch(w -> w.applied(second)));
        // The passes that hello's rollout and bye's deletion wake, until hello runs v2 and the informer has heard of
        // every status write (nothing held back, none for twice the lateness).
        await().atMost(WAIT).until(() -> runs(get(client, ns), second) && late.holding() == 0
            && written.get(written.size() - 1).at().isBefore(Instant.now().minus(LATENESS.multipliedBy(2))));

        assertThat(closed).as("the test's watch of infra ended early").isEmpty();
        assertThat(late.heldBack()).as("chunks of the controller's FunctionRepository watch held back %s each",
            millis(LATENESS)).isPositive();
        Written applied = written.stream().filter(w -> w.applied(second)).findFirst().orElseThrow();
        List<Written> fromTheApply = written.subList(written.indexOf(applied), written.size());
        String story = fromTheApply.stream().map(w -> w.describe(applied.at())).collect(Collectors.joining("\n  "));
        for (Written w : fromTheApply) {
          List<SyncRecord> entries = w.entries(second);
          assertThat(entries).as("history entries for %s in infra's status at resourceVersion %s; statuses from the "
              + "apply on:\n  %s", Written.shorter(second), w.resourceVersion(), story).isNotEmpty();
          assertThat(counts(entries.get(0))).as("the counts of %s in infra's history at resourceVersion %s, written "
              + "%s after the status that applied it: a later pass recorded the revision again, with what it found "
              + "already applied, while the controller's informer of FunctionRepositories was %s late. infra's "
              + "statuses from the apply on, as a watch on time saw them:\n  %s", Written.shorter(second),
              w.resourceVersion(), millis(Duration.between(applied.at(), w.at())), millis(LATENESS), story)
              .isEqualTo(counts(0, 1, 1));
          assertThat(entries).as("history entries for %s in infra's status at resourceVersion %s; statuses from the "
              + "apply on:\n  %s", Written.shorter(second), w.resourceVersion(), story).hasSize(1);
        }
      }
    }
  }

  /** The repository in the test's namespace, as the API server has it now. */
  private static FunctionRepository get(KubernetesClient client, TestNamespace ns) {
    return client.resources(FunctionRepository.class).inNamespace(ns.name()).withName("infra").get();
  }

  /** Ready True because {@code revision}, the one applied, runs. */
  private static boolean runs(FunctionRepository repository, String revision) {
    FunctionRepositoryStatus status = repository == null ? null : repository.getStatus();
    return status != null && revision.equals(status.getLastAppliedRevision())
        && Conditions.find(status.getConditions(), "Ready").filter(c -> "True".equals(c.getStatus())
            && c.getMessage().startsWith("revision " + revision + " runs")).isPresent();
  }

  private static String counts(SyncRecord entry) {
    return counts(entry.getCreated(), entry.getUpdated(), entry.getDeleted());
  }

  private static String counts(Integer created, Integer updated, Integer deleted) {
    return created + " created, " + updated + " updated, " + deleted + " deleted";
  }

  private static String millis(Duration duration) {
    return duration.toMillis() + " ms";
  }

  /** A generic push of {@code sha} to main, signed with the repository's webhook token, as a forge sends it. */
  private static HttpResponse<String> push(URI receiver, String url, String sha, String deliveryId) throws Exception {
    byte[] body = ("{\"repository\":\"" + url + "\",\"ref\":\"refs/heads/main\",\"after\":\"" + sha + "\"}")
        .getBytes(StandardCharsets.UTF_8);
    Mac mac = Mac.getInstance("HmacSHA256");
    mac.init(new SecretKeySpec(TOKEN.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
    return HttpClient.newHttpClient().send(HttpRequest.newBuilder(receiver.resolve("generic"))
            .header("Content-Type", "application/json").header("X-Delivery-Id", deliveryId)
            .header("X-Signature", "sha256=" + HexFormat.of().formatHex(mac.doFinal(body)))
            .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  /** A status of the repository as the test's watch saw it, when it saw it. */
  private record Written(String resourceVersion, Instant at, FunctionRepositoryStatus status) {

    /** The history's entries for {@code revision}, newest first. */
    List<SyncRecord> entries(String revision) {
      return status.getHistory() == null ? List.of()
          : status.getHistory().stream().filter(r -> revision.equals(r.getRevision())).toList();
    }

    /** Whether this status says {@code revision} is applied, and its history's newest entry is that revision. */
    boolean applied(String revision) {
      return revision.equals(status.getLastAppliedRevision()) && status.getHistory() != null
          && !status.getHistory().isEmpty() && revision.equals(status.getHistory().get(0).getRevision());
    }

    String describe(Instant applied) {
      String history = status.getHistory() == null ? "none" : status.getHistory().stream()
          .map(r -> shorter(r.getRevision()) + " " + r.getOutcome() + " (" + counts(r) + ")")
          .collect(Collectors.joining(", "));
      return resourceVersion + " (" + millis(Duration.between(applied, at)) + " after the apply): lastAppliedRevision "
          + shorter(status.getLastAppliedRevision()) + ", history " + history;
    }

    static String shorter(String revision) {
      return revision == null ? "none" : revision.replaceAll("(sha1:[0-9a-f]{7})[0-9a-f]+", "$1");
    }
  }

  /**
   * Holds back the body of every FunctionRepository watch by the same time, chunk by chunk and in order, from
   * {@link #holdBack} on; lists, gets, patches and the other watches go at once. So a status patch lands at once,
   * and the informer hears of it that much later.
   */
  private static final class LateRepositoryWatch implements Interceptor, AutoCloseable {

    private final ScheduledExecutorService delivery = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread thread = new Thread(r, "late-repository-watch");
      thread.setDaemon(true);
      return thread;
    });
    private volatile Duration lateness = Duration.ZERO;
    private final AtomicInteger holding = new AtomicInteger();
    private final AtomicInteger heldBack = new AtomicInteger();

    /** A client of the test bed whose FunctionRepository watches this holds back. */
    KubernetesClient client(KubeTestBed bed) {
      // Only an HTTP watch's body passes through Interceptor#consumer; a WebSocket watch's messages do not.
      return new KubernetesClientBuilder().withConfig(new ConfigBuilder(bed.config()).withOnlyHttpWatches(true).build())
          .withHttpClientBuilderConsumer(b -> b.addOrReplaceInterceptor("gitfn-test-late-repository-watch", this))
          .build();
    }

    void holdBack(Duration lateness) {
      this.lateness = lateness;
    }

    /** Chunks received and not yet passed on. */
    int holding() {
      return holding.get();
    }

    /** Chunks passed on late since {@link #holdBack}. */
    int heldBack() {
      return heldBack.get();
    }

    @Override
    public AsyncBody.Consumer<List<ByteBuffer>> consumer(AsyncBody.Consumer<List<ByteBuffer>> consumer,
        io.fabric8.kubernetes.client.http.HttpRequest request) {
      String query = Optional.ofNullable(request.uri().getRawQuery()).orElse("");
      if (!request.uri().getPath().endsWith("/functionrepositories")
          || !Arrays.asList(query.split("&")).contains("watch=true")) {
        return consumer;
      }
      return (chunk, body) -> {
        // The client may reuse its buffers once this returns.
        List<ByteBuffer> copies = chunk.stream()
            .map(b -> ByteBuffer.allocate(b.remaining()).put(b.duplicate()).flip()).toList();
        long delay = lateness.toMillis();
        if (delay > 0) {
          heldBack.incrementAndGet();
        }
        holding.incrementAndGet();
        // One thread, and the same delay for chunks that come in order: they are passed on in that order.
        delivery.schedule(() -> pass(consumer, copies, body), delay, TimeUnit.MILLISECONDS);
        body.consume(); // the next chunk now: each is late by the lateness, not by the sum of those before it
      };
    }

    private void pass(AsyncBody.Consumer<List<ByteBuffer>> consumer, List<ByteBuffer> chunk, AsyncBody body) {
      try {
        consumer.consume(chunk, new AsyncBody() {
          @Override
          public void consume() {
            // already asked for when the chunk came in
          }

          @Override
          public CompletableFuture<Void> done() {
            return body.done();
          }

          @Override
          public void cancel() {
            body.cancel();
          }
        });
      } catch (Exception e) {
        body.cancel(); // the watch ends and the informer starts another, rather than lose this chunk unseen
      } finally {
        holding.decrementAndGet();
      }
    }

    @Override
    public void close() {
      delivery.shutdownNow();
    }
  }
}
