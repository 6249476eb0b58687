package io.gitfn.dashboard;

import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobCondition;
import io.fabric8.kubernetes.api.model.batch.v1.JobStatus;
import io.gitfn.api.Labels;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A Function's newest build Job, as its page shows it: how it went, and the end of its log.
 *
 * @param contentKey the content key's tag it builds, from its label
 * @param state {@code Running}, {@code Succeeded}, {@code Failed} or {@code Waiting} (no Pod runs yet)
 * @param message why it failed, from its Failed condition, or empty
 * @param log the end of its Pod's log, or null before one was asked for
 */
public record BuildJob(String name, String contentKey, String state, String started, String finished,
    String message, BuildLog log) {

  /** The newest of a Function's Jobs, by creation, if it has one. */
  static Optional<BuildJob> newest(Collection<Job> jobs) {
    return jobs.stream()
        .max(Comparator.comparing((Job j) -> j.getMetadata().getCreationTimestamp(),
            Comparator.nullsFirst(Comparator.naturalOrder())).thenComparing(j -> j.getMetadata().getName()))
        .map(BuildJob::of);
  }

  static BuildJob of(Job job) {
    JobStatus status = job.getStatus() == null ? new JobStatus() : job.getStatus();
    List<JobCondition> conditions = status.getConditions() == null ? List.of() : status.getConditions();
    Optional<JobCondition> failed = conditions.stream()
        .filter(c -> "Failed".equals(c.getType()) && "True".equals(c.getStatus())).findFirst();
    String state = count(status.getSucceeded()) > 0 ? "Succeeded"
        : count(status.getFailed()) > 0 || failed.isPresent() ? "Failed"
        : count(status.getActive()) > 0 ? "Running"
        : "Waiting";
    return new BuildJob(job.getMetadata().getName(),
        job.getMetadata().getLabels() == null ? null : job.getMetadata().getLabels().get(Labels.CONTENT_KEY),
        state, status.getStartTime(), status.getCompletionTime(),
        failed.map(c -> Objects.requireNonNullElse(c.getReason(), "") + (c.getMessage() == null ? ""
            : ": " + c.getMessage())).orElse(""),
        null);
  }

  /** The same Job with the end of its log. */
  BuildJob withLog(BuildLog log) {
    return new BuildJob(name, contentKey, state, started, finished, message, log);
  }

  /** The CSS class of its badge. */
  public String css() {
    return switch (state) {
      case "Succeeded" -> "ready";
      case "Failed" -> "failed";
      default -> "reconciling";
    };
  }

  private static int count(Integer value) {
    return value == null ? 0 : value;
  }
}
