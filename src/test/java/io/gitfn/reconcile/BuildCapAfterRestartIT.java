package io.gitfn.reconcile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.gitfn.api.function.Function;
import io.gitfn.api.function.TestFunction;
import io.gitfn.build.BuildSettings;
import io.gitfn.controller.Controller;
import io.gitfn.source.SourceSettings;
import io.gitfn.testbed.KubeTestBed;
import io.gitfn.testbed.KwokBuildStages;
import io.gitfn.testbed.TestNamespace;
import io.gitfn.testbed.WithKubeCluster;
import io.gitfn.trigger.webhook.WebhookSettings;
import io.gitfn.workload.WorkloadSettings;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The build cap is the cluster's, not the process's: a controller restarted while builds run counts the build Jobs
 * it finds running before it admits another, so at no moment do more Jobs run than the cap allows.
 *
 * <p>Cap 3, so one namespace may hold 2 slots; the 13 Functions are spread over two namespaces so that all 3 slots
 * are taken. The first controller's build Pods are held by kwok for {@link #HELD}; it is stopped once 3 Jobs run
 * and 10 Functions wait. The second controller's builds take {@link #QUICK}. A watch on Jobs in both namespaces
 * counts the active ones (neither succeeded nor failed) at every change, from the restart until every Function
 * runs.
 */
@WithKubeCluster
class BuildCapAfterRestartIT {

  private static final int CAP = 3;
  private static final Duration HELD = Duration.ofSeconds(60);
  private static final Duration QUICK = Duration.ofSeconds(1);
  private static final Duration WAIT = Duration.ofSeconds(90);

  @Test
  void aRestartedControllerNeverRunsMoreBuildJobsThanTheCap(KubeTestBed bed, KubernetesClient client,
      TestNamespace ns) throws Exception {
    bed.installCrds();
    String other = ns.name() + "-b";
    client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(other).endMetadata().build())
        .create();
    try (ActiveJobs jobs = ActiveJobs.watch(client, List.of(ns.name(), other))) {
      // The three that take the slots are named to come last in each namespace, as the informer lists them, so
      // that a restarted controller meets the waiting Functions first.
      try (KubernetesClient firstClient = bed.newClient();
          Controller first = start(firstClient, bed.layeredBuilds().settings().withConcurrency(CAP)
              .withPodAnnotations(KwokBuildStages.buildDuration(HELD)))) {
        for (String name : List.of("z-0", "z-1")) {
          client.resource(function(ns.name(), name)).create();
        }
        client.resource(function(other, "z-0")).create();
        await().atMost(WAIT).untilAsserted(() -> assertThat(functions(client, ns.name(), other))
            .as("the first three Functions' builds").hasSize(3)
            .allSatisfy(fn -> assertThat(buildReason(fn)).as(describe(fn)).isEqualTo("JobRunning")));
        for (int i = 0; i < 5; i++) {
          client.resource(function(ns.name(), "a-" + i)).create();
          client.resource(function(other, "a-" + i)).create();
        }
        await().atMost(WAIT).untilAsserted(() -> {
          List<Function> all = functions(client, ns.name(), other);
          assertThat(all).hasSize(13);
          assertThat(all.stream().filter(fn -> "JobQueued".equals(buildReason(fn))))
              .as("Functions waiting for a slot").hasSize(10);
          assertThat(jobs.active()).as("build Jobs running under the first controller").hasSize(CAP);
        });
      } // stopped while kwok still holds the three build Pods

      assertThat(jobs.active()).as("build Jobs still running when the second controller starts").hasSize(CAP);
      jobs.mark();
      try (KubernetesClient secondClient = bed.newClient();
          Controller second = start(secondClient, bed.layeredBuilds().settings().withConcurrency(CAP)
              .withPodAnnotations(KwokBuildStages.buildDuration(QUICK)))) {
        await().atMost(HELD.plus(Duration.ofMinutes(3))).untilAsserted(() -> assertThat(
            functions(client, ns.name(), other)).hasSize(13)
            .allSatisfy(fn -> assertThat(ready(fn)).as(describe(fn)).isTrue()));
      }
      assertThat(jobs.peakSinceMark())
          .as("the most build Jobs active at once from the restart until all 13 Functions ran (cap %d): %s",
              CAP, jobs.peakJobsSinceMark())
          .isLessThanOrEqualTo(CAP);
      assertThat(jobs.created()).as("one build Job per Function").hasSize(13);
    } finally {
      client.namespaces().withName(other).delete();
    }
  }

  private static Controller start(KubernetesClient client, BuildSettings builds) throws Exception {
    return Controller.start(client, SourceSettings.defaults(Files.createTempDirectory("gitfn-cap-mirrors")),
        WebhookSettings.defaults(), ControllerSettings.defaults(), builds, WorkloadSettings.defaults(), "127.0.0.1",
        0);
  }

  /** A Function with dependencies of its own, so an install Job of its own. */
  private static Function function(String namespace, String name) {
    return TestFunction.inline().named(name).inNamespace(namespace).uid(null)
        .code("module.exports = { main: () => '" + name + "' };")
        .dependencies("{\"dependencies\": {\"" + name + "\": \"1.0.0\"}}").build();
  }

  private static List<Function> functions(KubernetesClient client, String... namespaces) {
    return Stream.of(namespaces)
        .flatMap(n -> client.resources(Function.class).inNamespace(n).list().getItems().stream()).toList();
  }

  private static Condition buildCondition(Function fn) {
    if (fn.getStatus() == null || fn.getStatus().getConditions() == null) {
      return new Condition();
    }
    return fn.getStatus().getConditions().stream().filter(c -> c.getType().equals("BuildReady")).findFirst()
        .orElseGet(Condition::new);
  }

  private static String buildReason(Function fn) {
    return buildCondition(fn).getReason();
  }

  private static String describe(Function fn) {
    return fn.getMetadata().getNamespace() + "/" + fn.getMetadata().getName() + ": " + (fn.getStatus() == null
        || fn.getStatus().getConditions() == null ? "no status"
        : fn.getStatus().getConditions().stream().map(c -> c.getType() + "=" + c.getStatus() + " " + c.getReason()
            + " (" + c.getMessage() + ")").toList());
  }

  /** ConfigurationReady, BuildReady and Running all True for the current generation. */
  private static boolean ready(Function fn) {
    return fn.getStatus() != null && fn.getStatus().getConditions() != null
        && Objects.equals(fn.getStatus().getObservedGeneration(), fn.getMetadata().getGeneration())
        && fn.getStatus().getConditions().size() == 3
        && fn.getStatus().getConditions().stream().allMatch(c -> c.getStatus().equals("True"));
  }

  /**
   * Build Jobs in some namespaces as a watch sees them: which are active (neither succeeded nor failed, and not
   * deleted) after each change, and the most that were active at once since {@link #mark}.
   */
  private static final class ActiveJobs implements AutoCloseable {

    private final Set<String> namespaces;
    private Watch watch;
    private final Set<String> created = new TreeSet<>();
    private final Set<String> active = new TreeSet<>();
    private Set<String> peak = Set.of();

    private ActiveJobs(Set<String> namespaces) {
      this.namespaces = namespaces;
    }

    /** One watch on every namespace, so that changes in both come in the API server's order. */
    static ActiveJobs watch(KubernetesClient client, List<String> namespaces) {
      ActiveJobs jobs = new ActiveJobs(Set.copyOf(namespaces));
      jobs.watch = client.batch().v1().jobs().inAnyNamespace().watch(new Watcher<>() {
        @Override
        public void eventReceived(Action action, Job job) {
          if (jobs.namespaces.contains(job.getMetadata().getNamespace())) {
            jobs.record(action, job);
          }
        }

        @Override
        public void onClose(WatcherException cause) {
        }
      });
      return jobs;
    }

    private synchronized void record(Watcher.Action action, Job job) {
      String name = job.getMetadata().getNamespace() + "/" + job.getMetadata().getName();
      created.add(name + " " + job.getMetadata().getUid());
      if (action == Watcher.Action.DELETED || finished(job)) {
        active.remove(name);
      } else {
        active.add(name);
      }
      if (active.size() > peak.size()) {
        peak = Set.copyOf(active);
      }
    }

    private static boolean finished(Job job) {
      return job.getStatus() != null && (count(job.getStatus().getSucceeded()) > 0
          || count(job.getStatus().getFailed()) > 0 || job.getStatus().getConditions() != null
          && job.getStatus().getConditions().stream().anyMatch(c -> ("Complete".equals(c.getType())
              || "Failed".equals(c.getType())) && "True".equals(c.getStatus())));
    }

    private static int count(Integer value) {
      return value == null ? 0 : value;
    }

    /** Starts counting the peak again from the Jobs active now. */
    synchronized void mark() {
      peak = Set.copyOf(active);
    }

    synchronized Set<String> active() {
      return Set.copyOf(active);
    }

    synchronized int peakSinceMark() {
      return peak.size();
    }

    /** The Jobs that were active together at the peak, sorted. */
    synchronized List<String> peakJobsSinceMark() {
      return new ArrayList<>(new TreeSet<>(peak));
    }

    /** Every Job seen, as {@code namespace/name uid}. */
    synchronized Set<String> created() {
      return Set.copyOf(created);
    }

    @Override
    public void close() {
      watch.close();
    }
  }
}
