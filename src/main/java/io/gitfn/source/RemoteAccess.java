package io.gitfn.source;

import io.gitfn.source.SourceException.Kind;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;
import org.apache.sshd.common.NamedResource;
import org.apache.sshd.common.config.keys.FilePasswordProvider;
import org.apache.sshd.common.util.security.SecurityUtils;
import org.eclipse.jgit.api.TransportCommand;
import org.eclipse.jgit.transport.SshSessionFactory;
import org.eclipse.jgit.transport.SshTransport;
import org.eclipse.jgit.transport.TransportHttp;
import org.eclipse.jgit.transport.UsernamePasswordCredentialsProvider;
import org.eclipse.jgit.transport.sshd.SshdSessionFactory;
import org.eclipse.jgit.transport.sshd.SshdSessionFactoryBuilder;

/**
 * Puts one mirror's credentials on a JGit command: basic auth for HTTP, and for SSH a session factory of its
 * own with the key held in memory and host keys checked strictly against the Secret's known_hosts.
 */
final class RemoteAccess implements AutoCloseable {

  private final GitCredentials credentials;
  private final boolean overSsh;
  private final Path sshDirectory;
  private final ReentrantLock sshSetup = new ReentrantLock();
  private SshdSessionFactory ssh;

  /** @param sshDirectory a private directory, apart from the mirror, for known_hosts and the SSH config */
  RemoteAccess(RepositoryUrl url, GitCredentials credentials, Path sshDirectory) {
    this.credentials = credentials;
    // ssh://… or scp-like host:path; JGit takes both to SSH.
    this.overSsh = url.fetchUrl().startsWith("ssh://") || !url.fetchUrl().contains("://");
    this.sshDirectory = sshDirectory;
  }

  <C extends TransportCommand<C, ?>> C applyTo(C command) throws SourceException {
    if (credentials instanceof GitCredentials.Basic basic) {
      command.setCredentialsProvider(new UsernamePasswordCredentialsProvider(basic.username(), basic.password()));
      // Sent with the first request, as git and go-git do once they know the credentials: without it every check
      // costs a 401 round trip before the real request, a third of an idle poll's requests.
      command.setTransportConfigCallback(transport -> {
        if (transport instanceof TransportHttp http) {
          http.setPreemptiveBasicAuthentication(basic.username(), basic.password());
        }
      });
    }
    if (!overSsh) {
      return command;
    }
    SshSessionFactory factory = new BoundedSshSessions(sshSessionFactory());
    command.setTransportConfigCallback(
        transport -> {
          if (transport instanceof SshTransport sshTransport) {
            sshTransport.setSshSessionFactory(factory);
          }
        });
    return command;
  }

  private SshdSessionFactory sshSessionFactory() throws SourceException {
    sshSetup.lock();
    try {
      if (ssh == null) {
        ssh = buildSsh();
      }
      return ssh;
    } finally {
      sshSetup.unlock();
    }
  }

  private SshdSessionFactory buildSsh() throws SourceException {
    List<KeyPair> keys = credentials instanceof GitCredentials.SshKey key ? loadKeys(key) : List.of();
    String knownHostsText = credentials instanceof GitCredentials.SshKey key ? key.knownHosts() : "";
    Path knownHosts = sshDirectory.resolve("known_hosts");
    Path config = sshDirectory.resolve("config");
    try {
      Files.createDirectories(sshDirectory.getParent());
      if (!Files.isDirectory(sshDirectory)) {
        Files.createDirectory(
            sshDirectory, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
      }
      writePrivate(knownHosts, knownHostsText);
      // Strict: a host missing from known_hosts is refused, never added.
      writePrivate(config, "Host *\n  StrictHostKeyChecking yes\n  BatchMode yes\n");
    } catch (IOException e) {
      throw new SourceException(Kind.TRANSPORT, "cannot write SSH settings under " + sshDirectory + ": " + e, e);
    }
    return new SshdSessionFactoryBuilder()
        .setHomeDirectory(sshDirectory.toFile())
        .setSshDirectory(sshDirectory.toFile())
        .setConfigFile(directory -> config.toFile())
        .setDefaultKnownHostsFiles(directory -> List.of(knownHosts))
        .setDefaultIdentities(directory -> List.of())
        .setDefaultKeysProvider(directory -> keys)
        .build(null);
  }

  private static void writePrivate(Path file, String content) throws IOException {
    Files.deleteIfExists(file);
    Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    Files.writeString(file, content);
  }

  private static List<KeyPair> loadKeys(GitCredentials.SshKey key) throws SourceException {
    List<KeyPair> keys = new ArrayList<>();
    try {
      Iterable<KeyPair> loaded =
          SecurityUtils.loadKeyPairIdentities(
              null,
              NamedResource.ofName("the Secret's key"),
              new ByteArrayInputStream(key.privateKeyPem().getBytes(StandardCharsets.UTF_8)),
              key.passphrase() == null ? FilePasswordProvider.EMPTY : FilePasswordProvider.of(key.passphrase()));
      if (loaded != null) {
        loaded.forEach(keys::add);
      }
    } catch (IOException | GeneralSecurityException | RuntimeException e) {
      // The parser's message may quote the key material: say only what kind of failure it was.
      throw new SourceException(
          Kind.AUTHENTICATION,
          "the SSH private key in the Secret cannot be read (" + e.getClass().getSimpleName() + "); it must be a"
              + " PEM private key (OpenSSH, PKCS#8 or PKCS#1), and 'password' must be its passphrase if it has one");
    }
    if (keys.isEmpty()) {
      throw new SourceException(
          Kind.AUTHENTICATION, "the Secret's 'key' holds no SSH private key; it must be a PEM private key");
    }
    return List.copyOf(keys);
  }

  @Override
  public void close() {
    sshSetup.lock();
    try {
      if (ssh != null) {
        ssh.close();
        ssh = null;
      }
    } finally {
      sshSetup.unlock();
    }
  }
}
