package io.gitfn.source;

import static org.assertj.core.api.Assertions.assertThat;

import io.gitfn.source.SourceException.Kind;
import java.io.IOException;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import org.apache.sshd.common.SshException;
import org.eclipse.jgit.errors.NoRemoteRepositoryException;
import org.eclipse.jgit.errors.TransportException;
import org.eclipse.jgit.transport.URIish;
import org.junit.jupiter.api.Test;

/** The messages below are what JGit said against the test servers (logged by ObservedFailures in the ITs). */
class FailureClassifierTest {

  private static final String HTTP = "http://127.0.0.1:38123/git/repo.git";
  private static final String SSH = "ssh://git@127.0.0.1:46639/repo.git";

  private static org.eclipse.jgit.api.errors.TransportException api(String url, String message, Throwable cause) {
    return new org.eclipse.jgit.api.errors.TransportException(url + ": " + message, cause);
  }

  private static SourceException classify(Throwable failure, String url) {
    return FailureClassifier.classify(failure, "ls-remote", url);
  }

  @Test
  void aRefusedPasswordIsAuthentication() {
    SourceException e = classify(
        api(HTTP, "not authorized", new TransportException(HTTP + ": not authorized")), HTTP);
    assertThat(e.kind()).isEqualTo(Kind.AUTHENTICATION);
    assertThat(e).hasMessageContaining(HTTP).hasMessageContaining("Secret");
  }

  @Test
  void noCredentialsWhereTheServerWantsThemIsAuthentication() {
    assertThat(classify(
        api(HTTP, "Authentication is required but no CredentialsProvider has been registered", null), HTTP).kind())
        .isEqualTo(Kind.AUTHENTICATION);
  }

  @Test
  void aRefusedSshKeyIsAuthentication() {
    String said = "Cannot log in at 127.0.0.1:46639\n"
        + "publickey: trying ssh-ed25519 key SHA256:Xx with signature type ssh-ed25519\n"
        + "publickey: server refused ssh-ed25519 key SHA256:Xx\n"
        + "publickey: no more keys to try";
    SourceException e = classify(
        api(SSH, said, new TransportException(SSH + ": " + said,
            new SshException("No more authentication methods available"))), SSH);
    assertThat(e.kind()).isEqualTo(Kind.AUTHENTICATION);
  }

  @Test
  void anUntrustedHostKeyNamesTheHostAndWhereToAddIt() {
    SourceException e = classify(
        api(SSH, "Server key did not validate",
            new TransportException(SSH + ": Server key did not validate",
                new SshException("Server key did not validate"))), SSH);
    assertThat(e.kind()).isEqualTo(Kind.UNKNOWN_HOST_KEY);
    assertThat(e).hasMessageContaining("127.0.0.1:46639").hasMessageContaining("known_hosts");
  }

  @Test
  void aMissingRepositoryOverHttpAndOverSsh() {
    String overHttp = HTTP + "/info/refs?service=git-upload-pack not found: Not Found";
    assertThat(classify(api(HTTP, overHttp, new NoRemoteRepositoryException(new URIish(), overHttp)), HTTP).kind())
        .isEqualTo(Kind.REPOSITORY_NOT_FOUND);
    assertThat(classify(api(SSH, "fatal: 'repo.git' does not appear to be a git repository", null), SSH).kind())
        .isEqualTo(Kind.REPOSITORY_NOT_FOUND);
  }

  @Test
  void aSilentServerIsATimeout() {
    SourceException e = classify(
        api(HTTP, "Connection time out: 127.0.0.1",
            new TransportException(HTTP + ": Connection time out: 127.0.0.1",
                new SocketTimeoutException("Read timed out"))), HTTP);
    assertThat(e.kind()).isEqualTo(Kind.TIMEOUT);
    assertThat(e.recoverable()).isTrue();
  }

  @Test
  void aRefusedConnectionOrAnUnknownHostIsATransientTransportFailure() {
    SourceException refused = classify(
        api(HTTP, "connection failed",
            new TransportException(HTTP + ": connection failed", new ConnectException("Connection refused"))), HTTP);
    assertThat(refused.kind()).isEqualTo(Kind.TRANSPORT);
    assertThat(refused.recoverable()).isTrue();
    assertThat(refused).hasMessageContaining("refused");

    SourceException dns = classify(
        api("https://git.invalid/repo.git", "unknown host",
            new UnknownHostException("git.invalid")), "https://git.invalid/repo.git");
    assertThat(dns.kind()).isEqualTo(Kind.TRANSPORT);
    assertThat(dns).hasMessageContaining("git.invalid");
  }

  @Test
  void aPasswordInAUrlNeverReachesTheMessage() {
    String url = "https://me:s3cret@example.com/repo.git";
    SourceException e = classify(new IOException("something odd at " + url), url);
    assertThat(e.kind()).isEqualTo(Kind.TRANSPORT);
    assertThat(e).hasMessageNotContaining("s3cret");
  }

  @Test
  void whatTheServerSaidNeverReachesTheMessageThatStatusShows() {
    String said = "<html>Welcome to the admin panel of 10.0.0.7: internal secrets here</html>";
    SourceException e = classify(api(HTTP, said, new TransportException(HTTP + ": " + said)), HTTP);

    assertThat(e.kind()).isEqualTo(Kind.TRANSPORT);
    assertThat(e.getMessage()).doesNotContain("admin panel").doesNotContain("10.0.0.7")
        .contains("the server's answer could not be used (TransportException");
  }
}
