package io.gitfn.testbed;

import static org.assertj.core.api.Assertions.assertThat;

import io.gitfn.testbed.git.GitClient;
import io.gitfn.testbed.git.WorkingCopy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.eclipse.jgit.api.Git;
import org.eclipse.jgit.lib.Ref;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The test forge is a real Gitea: it serves repositories created through its API to the git client. */
class GiteaServerIT {

  @Test
  void aPushToARepositoryCreatedThroughTheApiIsServed(@TempDir Path home) throws Exception {
    Path dir = Files.createTempDirectory(Files.createDirectories(TestBedBinaries.projectDir().resolve("target/testbed")), "gitea-");
    try (GiteaServer gitea = GiteaServer.start(dir)) {
      String cloneUrl = gitea.createRepository("functions");
      GitClient git = GitClient.create(home, gitea.admin(), null);
      WorkingCopy copy = git.clone(cloneUrl);
      String commit = copy.write("README.md", "# functions\n").commit("first");
      copy.push("HEAD:refs/heads/main");

      Map<String, Ref> refs = Git.lsRemoteRepository().setRemote(cloneUrl)
          .setCredentialsProvider(gitea.admin().forJGit()).callAsMap();

      assertThat(refs.get("refs/heads/main").getObjectId().name()).isEqualTo(commit);
    }
  }
}
