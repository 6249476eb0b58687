package io.gitfn.rollback;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.gitfn.api.Labels;
import io.gitfn.api.function.Function;
import io.gitfn.api.repository.FunctionRepository;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Works out a Function's {@link RevertTarget} from the cluster: its own spec, or the repository that applied it. */
public final class RevertTargets {

  private final KubernetesClient client;
  private final Map<Owner, Optional<FunctionRepository>> repositories = new HashMap<>();

  public RevertTargets(KubernetesClient client) {
    this.client = client;
  }

  /**
   * Where {@code fn} lives in Git. A Function with {@code spec.source.gitRepository} is reverted in that
   * repository, even when an infra repository declares it, because that is where its code (and so its image)
   * comes from; any other Function in the infra repository that applied it.
   */
  public RevertTarget of(Function fn) {
    if (fn.getSpec() != null && fn.getSpec().getSource() != null
        && fn.getSpec().getSource().getGitRepository() != null) {
      return RevertTarget.fromGitSource(fn);
    }
    Owner owner = Owner.of(fn).orElseThrow(() -> new RollbackException(RevertTarget.describe(fn)
        + " does not come from Git (no " + Labels.REPOSITORY + " label and no"
        + " spec.source.gitRepository), so there is nothing to revert; run an earlier image with --pin"));
    return RevertTarget.fromRepository(fn, repository(owner).orElseThrow(() -> new RollbackException(
        RevertTarget.describe(fn) + " was applied by FunctionRepository " + owner
            + ", which does not exist any more; run an earlier image with --pin")));
  }

  /** The FunctionRepository that applied {@code fn}, if it has one and it exists. */
  public Optional<FunctionRepository> repository(Function fn) {
    return Owner.of(fn).flatMap(this::repository);
  }

  /**
   * The other Functions of {@code fn}'s namespace whose files a revert of {@code target} would change too, like
   * the other documents of one YAML file; their own targets are worked out the same way, and those that have
   * none are left out.
   */
  public List<String> sharing(Function fn, RevertTarget target) {
    return client.resources(Function.class).inNamespace(fn.getMetadata().getNamespace()).list().getItems().stream()
        .filter(other -> !other.getMetadata().getName().equals(fn.getMetadata().getName()))
        .filter(other -> targetOf(other).map(target::overlaps).orElse(false))
        .map(other -> other.getMetadata().getName())
        .sorted()
        .toList();
  }

  private Optional<FunctionRepository> repository(Owner owner) {
    return repositories.computeIfAbsent(owner, key -> Optional.ofNullable(
        client.resources(FunctionRepository.class).inNamespace(key.namespace()).withName(key.name()).get()));
  }

  private Optional<RevertTarget> targetOf(Function other) {
    try {
      return Optional.of(of(other));
    } catch (RollbackException e) {
      // A Function that cannot be reverted in Git is not touched by this revert either.
      return Optional.empty();
    }
  }

  /** The FunctionRepository a Function's {@link Labels#REPOSITORY} label names. */
  private record Owner(String namespace, String name) {

    // The label is "<namespace>.<name>" (SyncRequest#owner); a namespace is a DNS label, so it has no dot.
    static Optional<Owner> of(Function fn) {
      Map<String, String> labels = fn.getMetadata().getLabels();
      String label = labels == null ? null : labels.get(Labels.REPOSITORY);
      if (label == null || label.isBlank()) {
        return Optional.empty();
      }
      int dot = label.indexOf('.');
      return Optional.of(dot < 0 ? new Owner(fn.getMetadata().getNamespace(), label)
          : new Owner(label.substring(0, dot), label.substring(dot + 1)));
    }

    @Override
    public String toString() {
      return namespace + "/" + name;
    }
  }
}
