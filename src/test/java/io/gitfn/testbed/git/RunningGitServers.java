package io.gitfn.testbed.git;

import io.gitfn.testbed.Directories;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HTTP and SSH Git servers of one test JVM, sharing one directory of bare repositories, with
 * the credentials and the SSH key a client needs to reach them. Closing stops both servers and
 * deletes every file they and their clients wrote.
 */
public record RunningGitServers(
    Path root,
    BareRepositories repositories,
    GitHttpServer http,
    GitSshServer ssh,
    SshAccess sshAccess)
    implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(RunningGitServers.class);

  public static RunningGitServers start() throws Exception {
    long started = System.nanoTime();
    Path root = Files.createTempDirectory("gitfn-git-");
    BareRepositories repositories =
        new BareRepositories(Files.createDirectories(root.resolve("repositories")));
    SshKey key = SshKey.generate(root.resolve("ssh-client"));
    GitHttpServer http =
        GitHttpServer.start(repositories.directory(), HttpCredentials.random("gitfn"));
    GitSshServer ssh;
    try {
      ssh = GitSshServer.start(repositories.directory(), root.resolve("ssh-server"));
    } catch (IOException | RuntimeException e) {
      http.close();
      throw e;
    }
    ssh.authorize(key.publicKey());
    SshAccess access = new SshAccess(key, root.resolve("ssh-client/known_hosts"));
    RunningGitServers servers = new RunningGitServers(root, repositories, http, ssh, access);
    try {
      Files.writeString(access.knownHostsFile(), ssh.knownHostsLine() + "\n");
    } catch (IOException e) {
      servers.close();
      throw e;
    }
    LOG.info("Git servers ready in {} ms", (System.nanoTime() - started) / 1_000_000);
    return servers;
  }

  /** A {@code git} client with its own home under the servers' directory. */
  public GitClient newClient(String name) throws IOException {
    Path clients = Files.createDirectories(root.resolve("clients"));
    Path home = Files.createTempDirectory(clients, name + "-");
    return GitClient.create(home, http.credentials(), sshAccess);
  }

  @Override
  public void close() throws Exception {
    LOG.info("Stopping Git servers");
    try (http;
        ssh) {
      // try-with-resources stops both, and keeps the second failure as a suppressed one.
    } finally {
      Directories.deleteRecursively(root);
    }
  }
}
