package io.gitfn.reconcile.function;

import static io.gitfn.api.function.ConditionType.RUNNING;

import io.gitfn.api.Annotations;
import io.gitfn.api.function.Function;
import io.gitfn.api.function.FunctionProgress;
import io.gitfn.api.function.GitRepositorySource;
import io.gitfn.api.function.GitRepositoryStatus;
import io.gitfn.notify.CommitState;
import io.gitfn.reconcile.ForgeReports;
import io.gitfn.reconcile.Result;
import io.gitfn.source.Revision;
import java.util.Optional;

/**
 * For a Git source with {@code gitfn.io/commit-status-secret}: tells the forge how the commit the Function is on is
 * doing (pending while it builds and rolls out, success once it runs, failure with the reason; a commit refused
 * before it was planned hears of its failure, while the one before keeps its status), once the pass's status is
 * written, and shows in {@code status.commitStatus} how the forge took it. A pinned Function reports nothing: it runs
 * another commit.
 */
final class ForgeStep implements FunctionStep {

  private final ForgeReports forge;

  ForgeStep(ForgeReports forge) {
    this.forge = forge;
  }

  @Override
  public String condition() {
    return RUNNING;
  }

  @Override
  public Result run(FunctionState state) {
    Function fn = state.fn();
    String namespace = fn.getMetadata().getNamespace();
    String name = fn.getMetadata().getName();
    Optional<String> secret = Annotations.get(fn, Annotations.COMMIT_STATUS_SECRET).map(String::strip);
    GitRepositorySource git = fn.getSpec().getSource() == null ? null : fn.getSpec().getSource().getGitRepository();
    if (secret.isEmpty() || git == null) {
      forge.forgetStatus(PlanStep.KIND, namespace, name);
      state.status().setCommitStatus(null);
      return Result.next();
    }
    ForgeReports.Target target = new ForgeReports.Target(PlanStep.KIND, namespace, name, git.getUrl(), secret.get(),
        "annotation " + Annotations.COMMIT_STATUS_SECRET, Annotations.get(fn, Annotations.COMMIT_STATUS_FORGE)
        .orElse(null), Annotations.get(fn, Annotations.COMMIT_STATUS_API_URL).orElse(null));
    ForgeReports.Prepared report = forge.commitStatus(target, verdict(state, git), state.status().getCommitStatus());
    report.shown().ifPresent(shown -> state.status().setCommitStatus(shown));
    report.send().ifPresent(state::afterWrite);
    return Result.next();
  }

  /**
   * How the commit of this pass is doing: the one it planned, or one it refused (a signature that did not verify, a
   * missing {@code baseDir}), which hears of its failure while the commit before it keeps its status; the commit the
   * status shows when the pass got to no revision.
   */
  private static Optional<ForgeReports.Verdict> verdict(FunctionState state, GitRepositorySource git) {
    GitRepositoryStatus at = state.status().getGitRepository();
    Optional<Revision> revision = state.attempted().isPresent()
        ? revision(git.getReference(), state.attempted().get().sha())
        : Optional.ofNullable(at).flatMap(known -> revision(known.getReference(), known.getCommit()));
    FunctionProgress progress = state.progressNow();
    if (revision.isEmpty() || progress.phase() == FunctionProgress.Phase.PINNED) {
      return Optional.empty();
    }
    return Optional.of(switch (progress.phase()) {
      case RUNNING -> new ForgeReports.Verdict(revision.get(), CommitState.SUCCESS, progress.reason(), "runs");
      case FAILED -> new ForgeReports.Verdict(revision.get(), CommitState.FAILURE, progress.reason(),
          progress.reason() + ": " + progress.message());
      default -> new ForgeReports.Verdict(revision.get(), CommitState.PENDING, progress.reason(),
          "building and rolling out");
    });
  }

  private static Optional<Revision> revision(String reference, String commit) {
    try {
      return commit == null ? Optional.empty() : Optional.of(new Revision(reference, commit));
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
  }
}
