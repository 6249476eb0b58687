package io.gitfn.source;

import io.gitfn.testbed.git.BareRepository;
import io.gitfn.testbed.git.GitHttpServer;
import io.gitfn.testbed.git.GitSshServer;
import io.gitfn.testbed.git.SshAccess;
import java.io.IOException;
import java.nio.file.Files;

/** How a test reaches one test repository: over HTTP with basic auth, or over SSH with a key. */
enum GitRemote {
  HTTP,
  SSH;

  record Access(RepositoryUrl url, GitCredentials credentials, String cloneUrl) {}

  Access of(BareRepository repository, GitHttpServer http, GitSshServer ssh, SshAccess sshAccess)
      throws IOException {
    return switch (this) {
      case HTTP -> new Access(
          RepositoryUrl.parse(http.url(repository.name())),
          new GitCredentials.Basic(http.credentials().username(), http.credentials().password()),
          http.url(repository.name()));
      case SSH -> new Access(
          RepositoryUrl.parse(ssh.url(repository.name())),
          new GitCredentials.SshKey(
              Files.readString(sshAccess.key().privateKeyFile()), null, Files.readString(sshAccess.knownHostsFile())),
          ssh.url(repository.name()));
    };
  }
}
