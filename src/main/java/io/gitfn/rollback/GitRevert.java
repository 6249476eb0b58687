package io.gitfn.rollback;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * A revert in Git: in a scratch clone of the branch, the Function's paths are restored to their content at an
 * earlier commit (files added since are removed), committed with a message that lists the commits undone, and
 * pushed as a fast-forward of the branch. The scratch directory is deleted afterwards.
 */
public final class GitRevert {

  /**
   * What to revert.
   *
   * @param function {@code <namespace>/<name>}, for the commit message
   * @param commitish the commit to go back to: a SHA or an unambiguous prefix
   * @param dryRun make the commit in the scratch clone, but do not push it
   */
  public record Request(String function, RevertTarget target, String commitish, boolean dryRun) {}

  /** The most undone commits the message lists one by one. */
  static final int MAX_LISTED = 50;

  private final GitCommandLine git;
  private final Consumer<String> progress;

  public GitRevert(GitCommandLine git, Consumer<String> progress) {
    this.git = git;
    this.progress = progress;
  }

  public RevertCommit run(Request request) throws InterruptedException {
    Path scratch;
    try {
      scratch = Files.createTempDirectory("gitfn-rollback-");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    try {
      return new Steps(request, scratch).run();
    } finally {
      deleteRecursively(scratch);
    }
  }

  /** The message of a revert commit: a subject that names the Function and the commit, and what it undoes. */
  static String message(String function, String shortSha, String subject, String paths, List<String> undone) {
    StringBuilder text = new StringBuilder()
        .append("Revert ").append(function).append(" to ").append(shortSha).append("\n\n")
        .append("Restore ").append(paths).append(" as of ").append(shortSha)
        .append(subject.isBlank() ? "" : " (" + subject + ")").append(", undoing:\n\n");
    undone.stream().limit(MAX_LISTED).forEach(line -> text.append(line).append('\n'));
    if (undone.size() > MAX_LISTED) {
      text.append("… and ").append(undone.size() - MAX_LISTED).append(" older commits\n");
    }
    return text.toString();
  }

  /** One revert, step by step; each step throws a {@link RollbackException} that says what failed. */
  private final class Steps {
    private final Request request;
    private final RevertTarget target;
    private final Path scratch;
    private final Path work;
    private String sha;
    private String shortSha;

    Steps(Request request, Path scratch) {
      this.request = request;
      this.target = request.target();
      this.scratch = scratch;
      this.work = scratch.resolve("work");
    }

    RevertCommit run() throws InterruptedException {
      cloneBranch();
      checkBranch();
      resolveCommit();
      restorePaths();
      List<String> undone = undoneCommits();
      String stat = checked("diff", "--cached", "--stat", "--no-color").out();
      String message = message(request.function(), shortSha, subjectOf(sha), target.describePaths(), undone);
      String commit = commit(message);
      if (!request.dryRun()) {
        push();
      }
      return new RevertCommit(commit, sha, message, undone, stat, !request.dryRun());
    }

    /** The branch is cloned with its history into the scratch directory; fails with git's own words. */
    private void cloneBranch() throws InterruptedException {
      progress.accept("► cloning branch " + target.branch() + " of " + GitResult.redact(target.url()));
      GitResult clone = git.run(scratch, "clone", "--quiet", "--no-tags", "--single-branch", "--branch",
          target.branch(), "--", target.url(), work.toString());
      if (!clone.ok()) {
        throw new RollbackException("cannot clone branch " + target.branch() + " of " + GitResult.redact(target.url())
            + ": " + clone.problem());
      }
    }

    /** {@code git clone --branch} also takes a tag; a revert needs a branch to push to. */
    private void checkBranch() throws InterruptedException {
      if (!git.run(work, "symbolic-ref", "--quiet", "HEAD").ok()) {
        throw new RollbackException("\"" + target.branch() + "\" of " + GitResult.redact(target.url())
            + " is a tag, not a branch, so there is no branch to push a revert to; run its earlier image with --pin");
      }
    }

    /** The commit is on the branch: it exists in the clone and is an ancestor of the branch's head. */
    private void resolveCommit() throws InterruptedException {
      GitResult resolved = git.run(work, "rev-parse", "--verify", "--quiet", request.commitish() + "^{commit}");
      if (!resolved.ok()) {
        throw new RollbackException("commit " + request.commitish() + " is not on branch " + target.branch() + " of "
            + GitResult.redact(target.url()));
      }
      sha = resolved.out().strip();
      shortSha = checked("rev-parse", "--short", sha).out().strip();
      GitResult ancestor = git.run(work, "merge-base", "--is-ancestor", sha, "HEAD");
      if (ancestor.exitCode() == 1) {
        throw new RollbackException("commit " + shortSha + " is not an ancestor of the head of branch "
            + target.branch() + "; a revert goes back along the branch's own history");
      } else if (!ancestor.ok()) {
        throw new RollbackException("git merge-base failed: " + ancestor.problem());
      }
    }

    /** The paths hold what they held at the commit, and nothing else; each must have existed then. */
    private void restorePaths() throws InterruptedException {
      progress.accept("► restoring " + target.describePaths() + " as of " + shortSha);
      for (String path : target.paths()) {
        String object = path.equals(RevertTarget.WHOLE_REPOSITORY) ? sha + "^{tree}" : sha + ":" + path;
        if (!git.run(work, "cat-file", "-e", object).ok()) {
          throw new RollbackException(path + " did not exist at commit " + shortSha + ", so the Function came from"
              + " elsewhere then; run that revision's image with --pin, or edit the repository by hand");
        }
      }
      List<String> rm = new ArrayList<>(List.of("rm", "-r", "-q", "--ignore-unmatch", "--"));
      rm.addAll(target.paths());
      checked(rm.toArray(String[]::new));
      List<String> checkout = new ArrayList<>(List.of("checkout", sha, "--"));
      checkout.addAll(target.paths());
      checked(checkout.toArray(String[]::new));
      GitResult diff = git.run(work, "diff", "--cached", "--quiet");
      if (diff.exitCode() > 1) {
        throw new RollbackException("git diff failed: " + diff.problem());
      }
      if (diff.ok()) {
        throw new RollbackException("function " + request.function() + " is already at " + shortSha + ": "
            + target.describePaths() + " on branch " + target.branch() + " did not change since; nothing to revert");
      }
    }

    /** The commits since the one restored that touched the paths, newest first, as {@code %h %s}. */
    private List<String> undoneCommits() throws InterruptedException {
      List<String> log = new ArrayList<>(List.of("log", "--no-color", "--format=%h %s", sha + "..HEAD", "--"));
      log.addAll(target.paths());
      return checked(log.toArray(String[]::new)).out().lines().filter(l -> !l.isBlank()).toList();
    }

    private String subjectOf(String commit) throws InterruptedException {
      return checked("log", "-1", "--format=%s", commit).out().strip();
    }

    /** The revert is committed with the user's identity and hooks; returns its SHA. */
    private String commit(String message) throws InterruptedException {
      Path file = scratch.resolve("message.txt");
      try {
        Files.writeString(file, message, StandardCharsets.UTF_8);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      GitResult commit = git.run(work, "commit", "--quiet", "--file", file.toString());
      if (!commit.ok()) {
        throw new RollbackException("git commit failed: " + commit.problem()
            + " (git needs user.name and user.email to commit)");
      }
      return checked("rev-parse", "HEAD").out().strip();
    }

    /**
     * The commit is on the branch, as a fast-forward. A branch that moved since the clone rejects it, and the
     * user runs the command again; nothing is forced.
     */
    private void push() throws InterruptedException {
      progress.accept("► pushing to branch " + target.branch());
      GitResult push = git.run(work, "push", "--porcelain", "origin", "HEAD:refs/heads/" + target.branch());
      if (push.ok()) {
        return;
      }
      // --porcelain: "!<TAB>from:to<TAB>[rejected] (fetch first)" whatever the user's language.
      for (String line : push.out().lines().toList()) {
        if (line.startsWith("!") && line.contains("[rejected]")) {
          throw new RollbackException("branch " + target.branch() + " of " + GitResult.redact(target.url())
              + " moved while the revert was made; nothing was pushed: run the same command again");
        }
        if (line.startsWith("!") && line.contains("[remote rejected]")) {
          throw new RollbackException("the repository refused the push to branch " + target.branch() + ": "
              + GitResult.redact(line.substring(line.indexOf("[remote rejected]")).strip()));
        }
      }
      throw new RollbackException("cannot push to branch " + target.branch() + " of "
          + GitResult.redact(target.url()) + ": " + push.problem());
    }

    private GitResult checked(String... arguments) throws InterruptedException {
      GitResult result = git.run(work, arguments);
      if (!result.ok()) {
        throw new RollbackException("git " + arguments[0] + " failed: " + result.problem());
      }
      return result;
    }
  }

  private static void deleteRecursively(Path root) {
    try {
      Files.walkFileTree(root, new SimpleFileVisitor<>() {
        @Override
        public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) throws IOException {
          Files.delete(file);
          return FileVisitResult.CONTINUE;
        }

        @Override
        public FileVisitResult postVisitDirectory(Path dir, IOException e) throws IOException {
          Files.delete(dir);
          return FileVisitResult.CONTINUE;
        }
      });
    } catch (IOException e) {
      // A scratch clone left behind in the temporary directory is untidy, not wrong.
    }
  }
}
