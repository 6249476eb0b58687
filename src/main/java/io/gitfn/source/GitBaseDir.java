package io.gitfn.source;

import io.gitfn.api.function.Function;
import io.gitfn.api.function.GitRepositorySource;
import io.gitfn.build.BuildContextTooLargeException;
import io.gitfn.build.BuildSettings;
import io.gitfn.build.FunctionBuildPlan;
import io.gitfn.build.RuntimeFiles;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * A Git-sourced Function's {@code baseDir} at one commit: its tree id, which is the source part of the content key,
 * and the build plan made from the handler and dependency file read there. The controller, {@code gitfn render} and
 * {@code gitfn up} all read it here, so they agree.
 *
 * @param tree the Git tree id of {@code baseDir}
 */
public record GitBaseDir(Revision revision, String tree, FunctionBuildPlan plan) {

  /**
   * Reads a Function's {@code baseDir} at the snapshot's commit.
   *
   * @throws SourceException PATH_NOT_FOUND when {@code baseDir} or the handler is missing, or any Git failure
   * @throws BuildContextTooLargeException when the handler and dependencies exceed the ConfigMap limit
   */
  public static GitBaseDir read(Function fn, Snapshot snapshot, BuildSettings builds)
      throws SourceException, BuildContextTooLargeException {
    GitRepositorySource git = fn.getSpec().getSource().getGitRepository();
    String baseDir = git.getBaseDir() == null ? "" : git.getBaseDir();
    Revision revision = snapshot.revision();
    String tree = snapshot.treeId(baseDir).orElseThrow(() -> new SourceException(SourceException.Kind.PATH_NOT_FOUND,
        "baseDir '" + baseDir + "' does not exist at " + revision));
    RuntimeFiles files = RuntimeFiles.of(fn.getSpec().getRuntime());
    String handler = file(snapshot, baseDir, files.source()).orElseThrow(() -> new SourceException(
        SourceException.Kind.PATH_NOT_FOUND, "baseDir '" + baseDir + "' has no " + files.source() + " at " + revision));
    String dependencies = file(snapshot, baseDir, files.dependencies()).orElse(null);
    // Buildless Pods install from the lock file; a lock without its dependency file would lock nothing.
    String lock = files.lock() == null || dependencies == null ? null
        : file(snapshot, baseDir, files.lock()).orElse(null);
    return new GitBaseDir(revision, tree,
        FunctionBuildPlan.ofGitTree(fn, tree, handler, dependencies, lock, builds));
  }

  /**
   * Reads a Function's {@code baseDir} where its {@code reference} points now: what {@code gitfn render} and
   * {@code gitfn up} build from. The controller reads at the revision its watcher resolved instead.
   *
   * @throws IllegalArgumentException when the spec's URL or reference cannot be parsed
   */
  public static GitBaseDir resolve(Function fn, MirrorCache mirrors, GitCredentials credentials, BuildSettings builds)
      throws SourceException, BuildContextTooLargeException {
    GitRepositorySource git = fn.getSpec().getSource().getGitRepository();
    return read(fn, mirrors.read(RepositoryUrl.parse(git.getUrl()), credentials,
        RefSelector.fromKymaReference(git.getReference())), builds);
  }

  private static Optional<String> file(Snapshot snapshot, String baseDir, String name) throws SourceException {
    String path = baseDir.isBlank() || baseDir.equals("/") ? name : baseDir + "/" + name;
    try {
      return Optional.of(new String(snapshot.read(path), StandardCharsets.UTF_8));
    } catch (IOException e) {
      if (e.getCause() instanceof SourceException s) {
        if (s.kind() == SourceException.Kind.PATH_NOT_FOUND) {
          return Optional.empty();
        }
        throw s;
      }
      throw new SourceException(SourceException.Kind.TRANSPORT, "cannot read " + path + ": " + e.getMessage());
    }
  }
}
