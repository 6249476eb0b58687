package io.gitfn.cli;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.gitfn.api.Annotations;
import io.gitfn.api.function.Function;
import io.gitfn.api.function.FunctionHistoryEntry;
import io.gitfn.api.repository.FunctionRepository;
import io.gitfn.request.ControllerRequests;
import io.gitfn.rollback.GitCommandLine;
import io.gitfn.rollback.GitRevert;
import io.gitfn.rollback.KnownRevisions;
import io.gitfn.rollback.Pins;
import io.gitfn.rollback.RevertCommit;
import io.gitfn.rollback.RevertTarget;
import io.gitfn.rollback.RevertTargets;
import io.gitfn.rollback.Revisions;
import java.time.Clock;
import java.util.List;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code gitfn rollback function NAME --to REVISION [--pin] [--dry-run]} and {@code … NAME --unpin}: without
 * {@code --pin}, a revert of the Function's files pushed to its branch; with it, the pin annotation.
 */
@Command(name = "function", aliases = {"functions", "fn"}, mixinStandardHelpOptions = true,
    description = {"Roll a Function back to a revision of its history (gitfn history function NAME).",
        "Without --pin: clone the Function's branch with your git client (your credentials, SSH agent and"
            + " identity), restore the Function's files as of that commit, commit and push. The controller finds"
            + " the earlier content key and re-points the Deployment without a build.",
        "With --pin: annotate the Function with " + Annotations.PINNED_REVISION + "; it runs that revision's image"
            + " until --unpin, and syncs from Git keep the pin."},
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {"0:pushed, pinned or unpinned, or nothing to pin or unpin", "1:refused or failed; nothing changed",
        "2:wrong usage"})
final class RollbackFunctionCommand extends ClusterCommand {

  @Parameters(index = "0", paramLabel = "NAME", description = "The Function.")
  String name;

  @ArgGroup(exclusive = true, multiplicity = "1")
  Mode mode;

  @Option(names = "--dry-run", description = "Say what would be pushed or patched, and change nothing.")
  boolean dryRun;

  private final GitCommandLine git;

  RollbackFunctionCommand() {
    this(GitCommandLine.fromEnvironment());
  }

  RollbackFunctionCommand(GitCommandLine git) {
    this.git = git;
  }

  /** Either a revision to go to, or the end of a pin. */
  static final class Mode {
    @ArgGroup(exclusive = false, multiplicity = "1")
    Target target;

    @Option(names = "--unpin", required = true, description = "Remove the pin: the Function runs what its spec says.")
    boolean unpin;
  }

  static final class Target {
    @Option(names = "--to", required = true, paramLabel = "REVISION",
        description = "A revision of the Function's history: main@sha1:<sha>, a full SHA, or 7+ hex digits of one.")
    String revision;

    @Option(names = "--pin", description = "Pin the Function to the image of REVISION instead of reverting in Git.")
    boolean pin;
  }

  @Override
  int run(KubernetesClient client, String namespace) throws InterruptedException {
    Function fn = ClusterObjects.one(client, Function.class, "function", namespace, name);
    if (mode.unpin) {
      return unpin(client, fn);
    }
    // A RollbackException says in one line why nothing changed; ClusterCommand prints it.
    return mode.target.pin ? pin(client, fn) : revert(client, fn);
  }

  private int pin(KubernetesClient client, Function fn) {
    FunctionHistoryEntry entry = KnownRevisions.of(fn).pinnable(mode.target.revision);
    String revision = entry.getRevision();
    String before = Pins.annotated(fn);
    if (revision.equals(before)) {
      say(described(fn) + " is already pinned to " + Revisions.shorten(revision) + "; nothing to do");
      return 0;
    }
    String was = before == null ? "" : " (was " + Revisions.shorten(before) + ")";
    if (dryRun) {
      say("would pin " + described(fn) + " to " + Revisions.shorten(revision) + was + " (image " + entry.getImage()
          + "); nothing changed");
      return 0;
    }
    new ControllerRequests(client, Clock.systemUTC())
        .pinFunction(fn.getMetadata().getNamespace(), fn.getMetadata().getName(), revision);
    say(described(fn) + " pinned to " + Revisions.shorten(revision) + was + " (image " + entry.getImage() + "); "
        + again("--unpin") + " releases it");
    say("  the controller runs that image with the rest of the Deployment from the spec; syncs from Git keep the pin");
    return 0;
  }

  private int unpin(KubernetesClient client, Function fn) {
    String before = Pins.annotated(fn);
    if (before == null) {
      say(described(fn) + " is not pinned; nothing to do");
      return 0;
    }
    if (dryRun) {
      say("would unpin " + described(fn) + " (pinned to " + Revisions.shorten(before) + "); nothing changed");
      return 0;
    }
    new ControllerRequests(client, Clock.systemUTC())
        .unpinFunction(fn.getMetadata().getNamespace(), fn.getMetadata().getName());
    say(described(fn) + " unpinned (was " + Revisions.shorten(before) + "); it runs the image of its spec again");
    return 0;
  }

  private int revert(KubernetesClient client, Function fn) throws InterruptedException {
    RevertTargets targets = new RevertTargets(client);
    RevertTarget target = targets.of(fn);
    KnownRevisions.Commit commit = KnownRevisions.of(fn).commit(mode.target.revision);
    List<String> sharing = targets.sharing(fn, target);
    if (!sharing.isEmpty()) {
      throw new CommandException(target.describePaths() + " also holds function(s) " + String.join(", ", sharing)
          + " of namespace " + fn.getMetadata().getNamespace() + ", so a revert would roll them back too; pin "
          + name + " with --pin, or edit the repository by hand");
    }
    String function = fn.getMetadata().getNamespace() + "/" + name;
    RevertCommit revert = new GitRevert(git, this::say)
        .run(new GitRevert.Request(function, target, commit.commitish(), dryRun));
    if (!revert.pushed()) {
      say("would push this commit to branch " + target.branch() + ":");
      say("");
      say(revert.message().stripTrailing());
      say("");
      say(revert.diffStat().stripTrailing());
      say("✔ dry run: nothing pushed");
      warnAboutWhatHoldsItBack(fn, targets);
      return 0;
    }
    say("✔ pushed " + revert.sha() + " to branch " + target.branch() + ": " + revert.subject() + " (undoes "
        + revert.undone().size() + " commit" + (revert.undone().size() == 1 ? "" : "s") + ")");
    say("  the controller rolls " + described(fn) + " back on its next sync or webhook; " + (commit.hasImage()
        ? "image " + commit.known().getImage() + " is known, so no build is needed"
        : "it builds an image only if no earlier build has the same content"));
    warnAboutWhatHoldsItBack(fn, targets);
    return 0;
  }

  // A pin or a suspended repository keeps the pushed revert from taking effect; say so rather than surprise.
  private void warnAboutWhatHoldsItBack(Function fn, RevertTargets targets) {
    String pinned = Pins.annotated(fn);
    if (pinned != null) {
      note("Warning: " + described(fn) + " is pinned to " + Revisions.shorten(pinned) + "; it keeps that image"
          + " until " + again("--unpin"));
    }
    targets.repository(fn)
        .filter(r -> Boolean.TRUE.equals(r.getSpec().getSuspend()))
        .ifPresent(r -> note("Warning: " + describe(r) + " is suspended; the revert is applied after gitfn resume"
            + " repository " + r.getMetadata().getName()));
  }

  private String again(String flags) {
    return "gitfn rollback function " + name + (namespace == null ? "" : " -n " + namespace) + " " + flags;
  }

  private void say(String line) {
    out().println(line);
    out().flush();
  }

  private static String described(Function fn) {
    return "function " + fn.getMetadata().getNamespace() + "/" + fn.getMetadata().getName();
  }

  private static String describe(FunctionRepository repository) {
    return "FunctionRepository " + repository.getMetadata().getNamespace() + "/" + repository.getMetadata().getName();
  }
}
