package io.gitfn.dashboard;

import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.io.IOException;
import java.io.InputStream;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The log of an install Job's Pod, which no informer holds: asked of the API server (which asks the kubelet) at most
 * once in {@link #FRESH} per Job whoever looks, and bounded twice: the API server is asked for the last lines and a
 * byte limit, and no more than that limit is read of its answer. The byte past the limit tells that there was more.
 */
public final class BuildLogs implements DashboardServer.Logs {

  static final Duration FRESH = Duration.ofSeconds(5);
  /** What a Function's page shows. */
  static final Size PAGE = new Size(40, 64 * 1024, 64);
  /** What its "whole log" link shows. */
  static final Size MORE = new Size(2000, 1024 * 1024, 4);
  private static final Set<String> LOGGING_PHASES = Set.of("Running", "Succeeded", "Failed");

  /**
   * How much of a log to read.
   *
   * @param jobs how many Jobs' answers to keep: at most {@code jobs × bytes} of memory
   */
  record Size(int lines, int bytes, int jobs) {}

  private final KubernetesClient client;
  private final FreshAnswers<BuildLog> pages;
  private final FreshAnswers<BuildLog> wholeLogs;

  public BuildLogs(KubernetesClient client, Clock clock) {
    this.client = OneTryClient.of(client);
    this.pages = new FreshAnswers<>(clock, FRESH, PAGE.jobs());
    this.wholeLogs = new FreshAnswers<>(clock, FRESH, MORE.jobs());
  }

  @Override
  public BuildLog tail(String namespace, String job, boolean whole) {
    Size size = whole ? MORE : PAGE;
    return (whole ? wholeLogs : pages).get(namespace + "/" + job, () -> read(namespace, job, size));
  }

  private BuildLog read(String namespace, String job, Size size) {
    try {
      Optional<Pod> pod = client.pods().inNamespace(namespace).withLabel("job-name", job)
          .list(new ListOptionsBuilder().withLimit(10L).build()).getItems().stream()
          .max(Comparator.comparing(p -> p.getMetadata().getCreationTimestamp(),
              Comparator.nullsFirst(Comparator.naturalOrder())));
      if (pod.isEmpty()) {
        return BuildLog.missing("the Job has no Pod any more, so its log is gone");
      }
      String name = pod.get().getMetadata().getName();
      String phase = pod.get().getStatus() == null ? null : pod.get().getStatus().getPhase();
      if (!LOGGING_PHASES.contains(phase)) {
        return BuildLog.missing("Pod " + name + " is " + (phase == null ? "not scheduled yet" : phase)
            + ": it has written no log yet");
      }
      try (InputStream log = client.pods().inNamespace(namespace).withName(name).inContainer(container(pod.get()))
          .limitBytes(size.bytes() + 1).tailingLines(size.lines()).getLogInputStream()) {
        return BuildLog.of(name, log.readNBytes(size.bytes() + 1), size.bytes());
      }
    } catch (KubernetesClientException | IOException e) {
      return BuildLog.missing("the API server did not give the log: " + e.getMessage());
    }
  }

  /**
   * The container whose log tells the story, since the API server asks which one when a Pod has several (an install
   * Job's {@code install} and {@code pack}): the first that failed, else the last that started, else the first.
   */
  static String container(Pod pod) {
    List<ContainerStatus> statuses = new ArrayList<>();
    if (pod.getStatus() != null) {
      Optional.ofNullable(pod.getStatus().getInitContainerStatuses()).ifPresent(statuses::addAll);
      Optional.ofNullable(pod.getStatus().getContainerStatuses()).ifPresent(statuses::addAll);
    }
    Optional<String> failed = statuses.stream().filter(c -> c.getState() != null && c.getState().getTerminated() != null
        && !Objects.equals(c.getState().getTerminated().getExitCode(), 0)).map(ContainerStatus::getName).findFirst();
    if (failed.isPresent()) {
      return failed.get();
    }
    return statuses.stream().filter(c -> c.getState() != null
            && (c.getState().getRunning() != null || c.getState().getTerminated() != null))
        .map(ContainerStatus::getName).reduce((first, second) -> second)
        .orElseGet(() -> pod.getSpec().getContainers().get(0).getName());
  }
}
