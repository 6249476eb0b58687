package io.gitfn.testbed.git;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.eclipse.jgit.api.Git;
import org.eclipse.jgit.api.LsRemoteCommand;
import org.eclipse.jgit.api.errors.TransportException;
import org.eclipse.jgit.lib.Ref;
import org.eclipse.jgit.transport.SshTransport;
import org.eclipse.jgit.transport.sshd.SshdSessionFactory;
import org.eclipse.jgit.transport.sshd.SshdSessionFactoryBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

@ExtendWith(GitServers.class)
class GitServersIT {

  @TempDir Path jgitHome;

  @Test
  void pushOverHttpWithGitIsSeenByJGitLsRemote(
      GitHttpServer http, BareRepository repository, GitClient git) throws Exception {
    WorkingCopy clone = git.clone(http.url(repository.name()));
    String commit =
        clone.write("functions/hello/function.yaml", "runtime: nodejs22\n").commit("Add hello");
    clone.push();

    Map<String, Ref> refs =
        Git.lsRemoteRepository()
            .setRemote(http.url(repository.name()))
            .setCredentialsProvider(http.credentials().forJGit())
            .callAsMap();

    assertThat(refs.get("refs/heads/main").getObjectId().name()).isEqualTo(commit);
  }

  @Test
  void tagsPushedOverHttpAreListedWithWhatTheyPointAt(
      GitHttpServer http, BareRepository repository, GitClient git) throws Exception {
    WorkingCopy clone = git.clone(http.url(repository.name()));
    String commit = clone.write("README.md", "hello\n").commit("First");
    String lightweight = clone.tag("v1");
    String annotated = clone.annotatedTag("v2", "Release v2");
    clone.push("HEAD", "refs/tags/v1", "refs/tags/v2");

    Map<String, Ref> refs =
        Git.lsRemoteRepository()
            .setRemote(http.url(repository.name()))
            .setCredentialsProvider(http.credentials().forJGit())
            .setTags(true)
            .callAsMap();

    assertThat(lightweight).isEqualTo(commit);
    assertThat(refs.get("refs/tags/v1").getObjectId().name()).isEqualTo(commit);
    assertThat(refs.get("refs/tags/v2").getObjectId().name()).isEqualTo(annotated);
    assertThat(refs.get("refs/tags/v2").getPeeledObjectId().name()).isEqualTo(commit);
  }

  @Test
  void pushOverSshWithGitIsSeenByJGitLsRemoteThatChecksTheHostKey(
      GitSshServer ssh, SshAccess access, BareRepository repository, GitClient git)
      throws Exception {
    WorkingCopy clone = git.clone(ssh.url(repository.name()));
    String commit =
        clone.write("functions/hello/function.yaml", "runtime: python312\n").commit("Add hello");
    clone.push();

    Map<String, Ref> refs;
    try (SshdSessionFactory jgitSsh = strictSsh(access.key(), access.knownHostsFile())) {
      refs = lsRemoteOverSsh(ssh.url(repository.name()), jgitSsh).callAsMap();
    }

    assertThat(refs.get("refs/heads/main").getObjectId().name()).isEqualTo(commit);
  }

  @Test
  void wrongPasswordIsRefusedOverHttp(GitHttpServer http, BareRepository repository) {
    LsRemoteCommand lsRemote =
        Git.lsRemoteRepository()
            .setRemote(http.url(repository.name()))
            .setCredentialsProvider(
                new HttpCredentials(http.credentials().username(), "not-the-password").forJGit());

    assertThatThrownBy(lsRemote::call)
        .isInstanceOf(TransportException.class)
        .hasMessageContaining("not authorized");
  }

  @Test
  void unknownHostKeyIsRefusedOverSsh(
      GitSshServer ssh, SshAccess access, BareRepository repository) throws Exception {
    Path emptyKnownHosts = Files.createFile(jgitHome.resolve("empty_known_hosts"));

    try (SshdSessionFactory jgitSsh = strictSsh(access.key(), emptyKnownHosts)) {
      assertThatThrownBy(() -> lsRemoteOverSsh(ssh.url(repository.name()), jgitSsh).call())
          .isInstanceOf(TransportException.class)
          .hasMessageContaining("Server key did not validate");
    }
  }

  @Test
  void aKeyTheServerNeverAuthorizedIsRefusedOverSsh(
      GitSshServer ssh, SshAccess access, BareRepository repository) throws Exception {
    SshKey stranger = SshKey.generate(jgitHome.resolve("stranger"));

    try (SshdSessionFactory jgitSsh = strictSsh(stranger, access.knownHostsFile())) {
      assertThatThrownBy(() -> lsRemoteOverSsh(ssh.url(repository.name()), jgitSsh).call())
          .isInstanceOf(TransportException.class)
          .hasMessageContaining("publickey");
    }
  }

  private static LsRemoteCommand lsRemoteOverSsh(String url, SshdSessionFactory jgitSsh) {
    return Git.lsRemoteRepository()
        .setRemote(url)
        .setTransportConfigCallback(
            transport -> ((SshTransport) transport).setSshSessionFactory(jgitSsh));
  }

  /** JGit's SSH client with one key, one known_hosts file and no ~/.ssh of the user. */
  private SshdSessionFactory strictSsh(SshKey key, Path knownHosts) throws IOException {
    Path sshDirectory = Files.createDirectories(jgitHome.resolve(".ssh"));
    Path config =
        Files.writeString(
            sshDirectory.resolve("config"),
            """
            Host *
              StrictHostKeyChecking yes
            """);
    return new SshdSessionFactoryBuilder()
        .setHomeDirectory(jgitHome.toFile())
        .setSshDirectory(sshDirectory.toFile())
        .setConfigFile(directory -> config.toFile())
        .setDefaultKnownHostsFiles(directory -> List.of(knownHosts))
        .setDefaultIdentities(directory -> List.of(key.privateKeyFile()))
        .build(null);
  }
}
