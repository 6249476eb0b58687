package io.gitfn.source;

import static org.assertj.core.api.Assertions.assertThat;

import io.gitfn.api.function.Function;
import io.gitfn.api.function.FunctionRuntime;
import io.gitfn.api.function.TestFunction;
import io.gitfn.build.BuildSettings;
import io.gitfn.build.BuildlessSource;
import io.gitfn.testbed.git.BareRepository;
import io.gitfn.testbed.git.GitClient;
import io.gitfn.testbed.git.GitHttpServer;
import io.gitfn.testbed.git.GitServers;
import io.gitfn.testbed.git.WorkingCopy;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** What a Git-sourced Function's baseDir gives its build plan: the lock file, which buildless Pods install from. */
@ExtendWith(GitServers.class)
class GitBaseDirIT {

  private static final BuildSettings BUILDS = BuildSettings.defaults();

  @TempDir Path cacheDir;

  @Test
  void aPackageLockBesideThePackageJsonReachesTheBuildlessSourceAndItsTreeMovesTheKey(GitHttpServer http,
      BareRepository repository, GitClient git) throws Exception {
    WorkingCopy clone = git.clone(http.url(repository.name()));
    clone.write("fn/handler.js", "module.exports = { main: () => 1 };\n")
        .write("fn/package.json", "{\"dependencies\": {\"ms\": \"2.1.3\"}}\n")
        .write("fn/package-lock.json", "{\"lockfileVersion\": 3}\n")
        .write("bare/handler.js", "module.exports = { main: () => 2 };\n")
        .write("py/handler.py", "def main(event, context):\n    return 1\n")
        .write("py/requirements.txt", "six==1.17.0\n")
        .write("py/package-lock.json", "{}\n")
        .commit("three functions");
    clone.push();

    try (MirrorCache cache = new MirrorCache(SourceSettings.defaults(cacheDir))) {
      Snapshot snapshot = snapshot(cache, http, repository);
      GitBaseDir locked = GitBaseDir.read(function(http, repository, "fn", FunctionRuntime.NODEJS22), snapshot,
          BUILDS);
      GitBaseDir bare = GitBaseDir.read(function(http, repository, "bare", FunctionRuntime.NODEJS22), snapshot,
          BUILDS);
      GitBaseDir python = GitBaseDir.read(function(http, repository, "py", FunctionRuntime.PYTHON312), snapshot,
          BUILDS);

      assertThat(locked.plan().lockFile()).isEqualTo("{\"lockfileVersion\": 3}\n");
      assertThat(BuildlessSource.of(function(http, repository, "fn", FunctionRuntime.NODEJS22), locked.plan(),
          BUILDS).files()).containsEntry("function/package-lock.json", "{\"lockfileVersion\": 3}\n");
      assertThat(bare.plan().lockFile()).as("no package.json, nothing to lock").isNull();
      assertThat(python.plan().lockFile()).as("pip has no lock file").isNull();

      clone.write("fn/package-lock.json", "{\"lockfileVersion\": 3, \"changed\": true}\n").commit("relock");
      clone.push();
      GitBaseDir relocked = GitBaseDir.read(function(http, repository, "fn", FunctionRuntime.NODEJS22),
          snapshot(cache, http, repository), BUILDS);
      assertThat(relocked.plan().key()).as("the lock file is part of baseDir's tree").isNotEqualTo(locked.plan().key());
    }
  }

  private static Function function(GitHttpServer http, BareRepository repository, String baseDir,
      FunctionRuntime runtime) {
    return TestFunction.fromGit(http.url(repository.name()), "main", baseDir).runtime(runtime).build();
  }

  private static Snapshot snapshot(MirrorCache cache, GitHttpServer http, BareRepository repository)
      throws SourceException {
    Mirror mirror = cache.mirror(RepositoryUrl.parse(http.url(repository.name())),
        new GitCredentials.Basic(http.credentials().username(), http.credentials().password()));
    Revision revision = mirror.resolve(new RefSelector.Branch("main"));
    mirror.ensure(List.of(revision));
    return mirror.snapshot(revision);
  }
}
