package io.gitfn.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gitfn.source.SourceException.Kind;
import io.gitfn.testbed.git.BareRepository;
import io.gitfn.testbed.git.GitClient;
import io.gitfn.testbed.git.GitHttpServer;
import io.gitfn.testbed.git.GitServers;
import io.gitfn.testbed.git.GitSshServer;
import io.gitfn.testbed.git.SshAccess;
import io.gitfn.testbed.git.WorkingCopy;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Every kind of credential, and every way they fail, against the real test servers. */
@ExtendWith(GitServers.class)
class CredentialsIT {

  @TempDir Path cacheDir;
  @TempDir Path keys;

  private MirrorCache cache;

  @BeforeEach
  void start() {
    cache = new MirrorCache(SourceSettings.defaults(cacheDir).withTimeout(Duration.ofSeconds(2)));
  }

  @AfterEach
  void stop() {
    cache.close();
  }

  private static String pushOneCommit(GitClient git, String url) throws Exception {
    WorkingCopy clone = git.clone(url);
    String commit = clone.write("a.txt", "1\n").commit("1");
    clone.push();
    return commit;
  }

  @ParameterizedTest
  @EnumSource(ClientKeys.Type.class)
  void everyKindOfSshKeyWorks(
      ClientKeys.Type type, GitSshServer ssh, SshAccess access, BareRepository repository, GitClient git)
      throws Exception {
    String commit = pushOneCommit(git, ssh.url(repository.name()));
    ClientKeys key = ClientKeys.generate(type, keys);
    ssh.authorize(key.publicKey());
    Mirror mirror =
        cache.mirror(
            RepositoryUrl.parse(ssh.url(repository.name())),
            new GitCredentials.SshKey(key.privateKeyPem(), type.passphrase, Files.readString(access.knownHostsFile())));

    Revision revision = mirror.resolve(new RefSelector.Branch("main"));
    mirror.ensure(List.of(revision));

    assertThat(revision.sha()).isEqualTo(commit);
    assertThat(mirror.snapshot(revision).read("a.txt")).isEqualTo("1\n".getBytes());
  }

  @Test
  void aCheckSendsTheCredentialsWithItsFirstRequestInsteadOfWaitingForA401(GitHttpServer http,
      BareRepository repository, GitClient git) throws Exception {
    pushOneCommit(git, http.url(repository.name()));
    Mirror mirror = cache.mirror(RepositoryUrl.parse(http.url(repository.name())),
        new GitCredentials.Basic(http.credentials().username(), http.credentials().password()));
    Map<String, Long> before = http.requests();

    mirror.remoteRefs();

    // One advertisement and one ls-refs (protocol v2); a challenge first would be a second GET.
    assertThat(requestsSince(before, http.requests())).containsAllEntriesOf(
        Map.of("JGit GET info/refs", 1L, "JGit POST git-upload-pack", 1L)).containsOnlyKeys(
        "JGit GET info/refs", "JGit POST git-upload-pack", "JGit response bytes");
  }

  private static Map<String, Long> requestsSince(Map<String, Long> before, Map<String, Long> after) {
    Map<String, Long> since = new java.util.TreeMap<>();
    after.forEach((key, count) -> {
      long more = count - before.getOrDefault(key, 0L);
      if (more > 0) {
        since.put(key, more);
      }
    });
    return since;
  }

  @Test
  void aWrongPasswordIsAnAuthenticationFailure(GitHttpServer http, BareRepository repository) {
    Mirror mirror =
        cache.mirror(
            RepositoryUrl.parse(http.url(repository.name())),
            new GitCredentials.Basic(http.credentials().username(), "not-the-password"));

    assertThatThrownBy(mirror::remoteRefs)
        .isInstanceOfSatisfying(SourceException.class, e -> {
          observed(e);
          assertThat(e.kind()).isEqualTo(Kind.AUTHENTICATION);
          assertThat(e.recoverable()).isFalse();
        })
        .hasMessageContaining(http.url(repository.name()))
        .hasMessageNotContaining("not-the-password");
  }

  @Test
  void noCredentialsWhereTheyAreNeededIsAnAuthenticationFailure(GitHttpServer http, BareRepository repository) {
    Mirror mirror = cache.mirror(RepositoryUrl.parse(http.url(repository.name())), new GitCredentials.None());

    assertThatThrownBy(mirror::remoteRefs)
        .isInstanceOfSatisfying(SourceException.class, e -> {
          observed(e);
          assertThat(e.kind()).isEqualTo(Kind.AUTHENTICATION);
        });
  }

  @Test
  void aKeyTheServerDoesNotKnowIsAnAuthenticationFailure(
      GitSshServer ssh, SshAccess access, BareRepository repository) throws Exception {
    ClientKeys stranger = ClientKeys.generate(ClientKeys.Type.ED25519, keys);
    Mirror mirror =
        cache.mirror(
            RepositoryUrl.parse(ssh.url(repository.name())),
            new GitCredentials.SshKey(stranger.privateKeyPem(), null, Files.readString(access.knownHostsFile())));

    assertThatThrownBy(mirror::remoteRefs)
        .isInstanceOfSatisfying(SourceException.class, e -> {
          observed(e);
          assertThat(e.kind()).isEqualTo(Kind.AUTHENTICATION);
        });
  }

  @Test
  void anUnknownHostKeyIsRefusedAndNamesTheHost(GitSshServer ssh, SshAccess access, BareRepository repository)
      throws Exception {
    Mirror mirror =
        cache.mirror(
            RepositoryUrl.parse(ssh.url(repository.name())),
            new GitCredentials.SshKey(Files.readString(access.key().privateKeyFile()), null, ""));

    assertThatThrownBy(mirror::remoteRefs)
        .isInstanceOfSatisfying(SourceException.class, e -> {
          observed(e);
          assertThat(e.kind()).isEqualTo(Kind.UNKNOWN_HOST_KEY);
          assertThat(e.recoverable()).isFalse();
        })
        .hasMessageContaining("127.0.0.1:" + ssh.port())
        .hasMessageContaining("known_hosts");
  }

  @Test
  void aWrongPassphraseOrAKeyThatIsNoKeySaysSoWithoutShowingIt(
      GitSshServer ssh, SshAccess access, BareRepository repository) throws Exception {
    ClientKeys key = ClientKeys.generate(ClientKeys.Type.ED25519_WITH_PASSPHRASE, keys);
    String knownHosts = Files.readString(access.knownHostsFile());
    RepositoryUrl url = RepositoryUrl.parse(ssh.url(repository.name()));

    assertThatThrownBy(() -> cache.mirror(url, new GitCredentials.SshKey(key.privateKeyPem(), "wrong", knownHosts))
            .remoteRefs())
        .isInstanceOfSatisfying(SourceException.class, e -> {
          observed(e);
          assertThat(e.kind()).isEqualTo(Kind.AUTHENTICATION);
        })
        .hasMessageContaining("passphrase")
        .hasMessageNotContaining("wrong");
    assertThatThrownBy(() -> cache.mirror(url, new GitCredentials.SshKey("not a key s3cret", null, knownHosts))
            .remoteRefs())
        .isInstanceOfSatisfying(SourceException.class, e -> assertThat(e.kind()).isEqualTo(Kind.AUTHENTICATION))
        .hasMessageContaining("PEM")
        .hasMessageNotContaining("s3cret");
  }

  @Test
  void aRefusedConnectionIsATransientTransportFailure() throws Exception {
    int port;
    try (ServerSocket closed = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = closed.getLocalPort();
    }
    Mirror mirror =
        cache.mirror(RepositoryUrl.parse("http://127.0.0.1:" + port + "/git/x.git"), new GitCredentials.None());

    assertThatThrownBy(mirror::remoteRefs)
        .isInstanceOfSatisfying(SourceException.class, e -> {
          observed(e);
          assertThat(e.kind()).isEqualTo(Kind.TRANSPORT);
          assertThat(e.recoverable()).isTrue();
        });
  }

  @Test
  void aServerThatNeverAnswersTimesOut() throws Exception {
    List<Socket> accepted = new CopyOnWriteArrayList<>();
    try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
      Thread acceptor = new Thread(() -> {
        try {
          while (true) {
            accepted.add(silent.accept());
          }
        } catch (Exception closed) {
          // the test is over
        }
      });
      acceptor.setDaemon(true);
      acceptor.start();
      Mirror mirror = cache.mirror(
          RepositoryUrl.parse("http://127.0.0.1:" + silent.getLocalPort() + "/git/x.git"), new GitCredentials.None());

      assertThatThrownBy(mirror::remoteRefs)
          .isInstanceOfSatisfying(SourceException.class, e -> {
            observed(e);
            assertThat(e.kind()).isEqualTo(Kind.TIMEOUT);
            assertThat(e.recoverable()).isTrue();
          });
    } finally {
      for (Socket socket : accepted) {
        socket.close();
      }
    }
  }

  private static void observed(SourceException e) {
    ObservedFailures.log(e);
  }
}
