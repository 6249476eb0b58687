package io.gitfn.bench;

import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.gitfn.api.Labels;
import io.gitfn.api.repository.FunctionRepository;
import io.gitfn.build.DependencyInstallJob;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Where a change's time goes, as this JVM sees the cluster's watches: when the FunctionRepository applied the
 * pushed revision, when an install Job was created, when its Pod's pack container ended (the dependency image is
 * pushed), when the Job controller marked the Job complete, and when the Function's Deployment got the new image.
 * Times are this process's clock when the watch event arrived, so they have millisecond resolution where the
 * objects' own timestamps have seconds.
 */
final class ChangeTimeline implements AutoCloseable {

  /** The moments of one change, in nanoseconds of {@link System#nanoTime}; 0 where the step did not happen. */
  record Steps(long pushed, long applied, long jobCreated, long packed, long jobDone, long deploymentUpdated,
      long answering) {

    double millis(long from, long to) {
      return from == 0 || to == 0 ? Double.NaN : (to - from) / 1e6;
    }
  }

  private final List<Watch> watches = new ArrayList<>();
  private final List<Long> applied = new CopyOnWriteArrayList<>();
  private final List<Long> jobsCreated = new CopyOnWriteArrayList<>();
  private final List<Long> packed = new CopyOnWriteArrayList<>();
  private final List<Long> jobsDone = new CopyOnWriteArrayList<>();
  private final Map<String, Boolean> seenPacks = new ConcurrentHashMap<>();
  private final List<Long> deploymentsUpdated = new CopyOnWriteArrayList<>();
  private final Map<String, Boolean> seenJobs = new ConcurrentHashMap<>();
  private volatile String lastRevision;
  private volatile String lastImage;

  ChangeTimeline(KubernetesClient client, String namespace, String repository, String deployment) {
    watches.add(client.resources(FunctionRepository.class).inNamespace(namespace).withName(repository)
        .watch(watcher((action, repo) -> {
          String revision = repo.getStatus() == null ? null : repo.getStatus().getLastAppliedRevision();
          if (revision != null && !revision.equals(lastRevision)) {
            lastRevision = revision;
            applied.add(System.nanoTime());
          }
        })));
    // Every Job: a build Job, or the layered builder's install Job, which has no content key of its own.
    watches.add(client.batch().v1().jobs().inNamespace(namespace)
        .watch(watcher((action, job) -> {
          String uid = job.getMetadata().getUid();
          if (seenJobs.putIfAbsent(uid, false) == null) {
            jobsCreated.add(System.nanoTime());
          }
          if (job.getStatus() != null && job.getStatus().getCompletionTime() != null
              && !seenJobs.put(uid, true)) {
            jobsDone.add(System.nanoTime());
          }
        })));
    watches.add(client.pods().inNamespace(namespace).withLabel(Labels.RESOURCE, DependencyInstallJob.RESOURCE)
        .watch(watcher((action, pod) -> {
          boolean ended = pod.getStatus() != null && pod.getStatus().getContainerStatuses() != null
              && pod.getStatus().getContainerStatuses().stream().anyMatch(c -> DependencyInstallJob.PACK.equals(
                  c.getName()) && c.getState() != null && c.getState().getTerminated() != null
                  && Objects.equals(c.getState().getTerminated().getExitCode(), 0));
          if (ended && seenPacks.putIfAbsent(pod.getMetadata().getUid(), true) == null) {
            packed.add(System.nanoTime());
          }
        })));
    watches.add(client.apps().deployments().inNamespace(namespace).withName(deployment)
        .watch(watcher((action, d) -> {
          String image = image(d);
          if (!Objects.equals(image, lastImage)) {
            lastImage = image;
            deploymentsUpdated.add(System.nanoTime());
          }
        })));
  }

  /** How many Jobs were created since the timeline began. */
  int jobsCreated() {
    return jobsCreated.size();
  }

  /** The steps of the change pushed at {@code pushed} that answered at {@code answering}. */
  Steps of(long pushed, long answering) {
    return new Steps(pushed, firstAfter(applied, pushed), firstAfter(jobsCreated, pushed), firstAfter(packed, pushed),
        firstAfter(jobsDone, pushed), firstAfter(deploymentsUpdated, pushed), answering);
  }

  private static long firstAfter(List<Long> moments, long start) {
    return moments.stream().filter(t -> t >= start).findFirst().orElse(0L);
  }

  private static String image(Deployment deployment) {
    return deployment.getSpec().getTemplate().getSpec().getContainers().get(0).getImage();
  }

  private interface Event<T> {
    void on(Watcher.Action action, T resource);
  }

  private static <T> Watcher<T> watcher(Event<T> event) {
    return new Watcher<>() {
      @Override
      public void eventReceived(Action action, T resource) {
        event.on(action, resource);
      }

      @Override
      public void onClose(WatcherException cause) {}
    };
  }

  /**
   * One line per change for the run's output. A change without a build shows push → Deployment instead: the
   * Function's rollout can start before the repository's status records the revision.
   */
  static String describe(Steps s) {
    String middle = s.jobCreated() == 0
        ? "push→deployment " + ms(s.millis(s.pushed(), s.deploymentUpdated()))
        : "applied→job " + ms(s.millis(s.applied(), s.jobCreated())) + ", job→packed " + ms(s.millis(s.jobCreated(),
            s.packed())) + " (Job complete " + ms(s.millis(s.packed(), s.jobDone())) + " later), packed→deployment "
            + ms(s.millis(s.packed(), s.deploymentUpdated()));
    return "push→applied " + ms(s.millis(s.pushed(), s.applied())) + ", " + middle + ", deployment→answer "
        + ms(s.millis(s.deploymentUpdated(), s.answering()));
  }

  private static String ms(double millis) {
    return Double.isNaN(millis) ? "-" : Duration.ofMillis((long) millis).toMillis() + " ms";
  }

  @Override
  public void close() {
    watches.forEach(Watch::close);
  }
}
