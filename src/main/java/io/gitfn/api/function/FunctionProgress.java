package io.gitfn.api.function;

import static io.gitfn.api.function.ConditionType.BUILD_READY;
import static io.gitfn.api.function.ConditionType.CONFIGURATION_READY;
import static io.gitfn.api.function.ConditionType.RUNNING;

import io.fabric8.kubernetes.api.model.Condition;
import io.gitfn.api.Conditions;
import java.util.List;
import java.util.Optional;

/**
 * How far a Function is from running what its spec says, judged from the Function alone: the generation its
 * status describes and Kyma's three conditions. A FunctionRepository is running a revision when each of its
 * Functions is {@link Phase#RUNNING} (or pinned), which is what its {@code Ready} means.
 *
 * @param generation the Function's {@code metadata.generation} when judged
 * @param reason the reason of the condition that decided the phase; it changes as a release moves on (JobRunning,
 *     DeploymentWaiting, DeploymentReady), which is when the repository is told
 * @param message what a person reads about it, such as "Job hello-x builds registry/hello:k"
 */
public record FunctionProgress(String namespace, String name, long generation, Phase phase, String reason, String message) {

  public enum Phase {
    /** The current spec's image runs on every desired replica: ConfigurationReady, BuildReady and Running True. */
    RUNNING,
    /** Not there yet: the controller has not seen the spec, or it builds, or the Deployment rolls out. */
    ROLLING_OUT,
    /** A condition is False: the spec is invalid, the build failed, or the rollout failed. */
    FAILED,
    /** Pinned by {@code gitfn rollback --pin}: it runs the revision a person chose, not its spec's. */
    PINNED
  }

  private static final List<String> TYPES = List.of(CONFIGURATION_READY, BUILD_READY, RUNNING);

  public static FunctionProgress of(Function fn) {
    return of(fn, fn.getStatus());
  }

  /** The progress of {@code fn} with {@code status}, which a pass is about to write. */
  public static FunctionProgress of(Function fn, FunctionStatus status) {
    String namespace = fn.getMetadata().getNamespace();
    String name = fn.getMetadata().getName();
    long generation = fn.getMetadata().getGeneration() == null ? 0 : fn.getMetadata().getGeneration();
    if (status == null || status.getObservedGeneration() == null
        || status.getObservedGeneration() < generation) {
      return new FunctionProgress(namespace, name, generation, Phase.ROLLING_OUT, "Pending",
          "the controller has not acted on its current spec yet");
    }
    if (status.getPinnedRevision() != null) {
      return new FunctionProgress(namespace, name, generation, Phase.PINNED, "Pinned", "pinned to " + status.getPinnedRevision());
    }
    List<Condition> conditions = status.getConditions();
    Optional<Condition> failed = TYPES.stream().flatMap(t -> Conditions.find(conditions, t).stream())
        .filter(c -> "False".equals(c.getStatus())).findFirst();
    if (failed.isPresent()) {
      return new FunctionProgress(namespace, name, generation, Phase.FAILED, failed.get().getReason(), failed.get().getMessage());
    }
    for (String type : TYPES) {
      Optional<Condition> condition = Conditions.find(conditions, type);
      if (condition.isEmpty() || !"True".equals(condition.get().getStatus())) {
        return new FunctionProgress(namespace, name, generation, Phase.ROLLING_OUT,
            condition.map(Condition::getReason).orElse("Pending"),
            condition.map(Condition::getMessage).orElse(type + " is not reported yet"));
      }
    }
    return new FunctionProgress(namespace, name, generation, Phase.RUNNING, Conditions.find(conditions, RUNNING)
        .map(Condition::getReason).orElse(""), Conditions.message(conditions, RUNNING));
  }

  /** Whether the repository has nothing left to wait for from this Function. */
  public boolean settled() {
    return phase == Phase.RUNNING || phase == Phase.PINNED;
  }

  /**
   * Whether {@code other} says something different enough to tell the repository: another phase or reason, or
   * another generation (the spec changed, maybe by hand, which the repository sets back).
   */
  public boolean movedFrom(FunctionProgress other) {
    return other == null || phase != other.phase || !java.util.Objects.equals(reason, other.reason)
        || generation != other.generation;
  }

  /** {@code name: message}, or {@code namespace/name: message} outside the repository's namespace. */
  public String describe(String repositoryNamespace) {
    String who = namespace == null || namespace.equals(repositoryNamespace) ? name : namespace + "/" + name;
    return who + ": " + message;
  }
}
