package io.gitfn.source;

import io.gitfn.api.function.Function;
import io.gitfn.api.function.GitRepositorySource;
import io.gitfn.build.BuildContext;
import io.gitfn.build.BuildContextTooLargeException;
import io.gitfn.build.BuildSettings;
import io.gitfn.build.ContentKey;
import io.gitfn.build.RuntimeFiles;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * What a Function with a Git source builds from at one commit: the tree id of its {@code baseDir}, which is the
 * source part of its content key, and the handler and dependency file for the build context. The controller and
 * {@code gitfn render} both read it here, so they agree.
 *
 * @param tree the Git tree id of {@code baseDir}
 */
public record GitFunctionSource(Revision revision, String tree, ContentKey key, BuildContext context) {

  /**
   * Reads a Function's {@code baseDir} at the snapshot's commit.
   *
   * @throws SourceException PATH_NOT_FOUND when {@code baseDir} or the handler is missing, or any Git failure
   * @throws BuildContextTooLargeException when the handler and dependencies exceed the ConfigMap limit
   */
  public static GitFunctionSource read(Function fn, Snapshot snapshot, BuildSettings builds)
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
    return new GitFunctionSource(revision, tree, ContentKey.ofGitTree(fn, tree, builds),
        BuildContext.of(fn, handler, dependencies, builds));
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
