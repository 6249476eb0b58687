package io.gitfn.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

class GitCredentialsTest {

  private static final String PEM = "-----BEGIN OPENSSH PRIVATE KEY-----\nc2VjcmV0\n-----END OPENSSH PRIVATE KEY-----\n";

  @Test
  void basicReadsUsernameAndPasswordOrToken() throws Exception {
    assertThat(GitCredentials.fromSecret("basic", Map.of("username", "me", "password", "ghp_token"), null))
        .isEqualTo(new GitCredentials.Basic("me", "ghp_token"));
  }

  @Test
  void keyReadsTheKeyItsPassphraseAndKnownHostsFromTheSecretFirst() throws Exception {
    assertThat(GitCredentials.fromSecret("key", Map.of("key", PEM, "password", "pp", "known_hosts", "h1"), "h2"))
        .isEqualTo(new GitCredentials.SshKey(PEM, "pp", "h1"));
    assertThat(GitCredentials.fromSecret("key", Map.of("key", PEM), "h2"))
        .isEqualTo(new GitCredentials.SshKey(PEM, null, "h2"));
  }

  @Test
  void noAuthTypeIsAnonymous() throws Exception {
    assertThat(GitCredentials.fromSecret(null, Map.of(), null)).isEqualTo(new GitCredentials.None());
  }

  @Test
  void aMissingKeyIsNamedAndNoValueIsShown() {
    assertThatThrownBy(() -> GitCredentials.fromSecret("basic", Map.of("username", "me"), null))
        .isInstanceOfSatisfying(
            SourceException.class, e -> assertThat(e.kind()).isEqualTo(SourceException.Kind.AUTHENTICATION))
        .hasMessageContaining("'password'")
        .hasMessageNotContaining("me");
    assertThatThrownBy(() -> GitCredentials.fromSecret("key", Map.of("password", "s3cret"), null))
        .hasMessageContaining("'key'")
        .hasMessageNotContaining("s3cret");
    assertThatThrownBy(() -> GitCredentials.fromSecret("token", Map.of(), null))
        .hasMessageContaining("basic, key");
  }

  @Test
  void toStringShowsNoSecret() {
    assertThat(new GitCredentials.Basic("me", "s3cret").toString()).contains("me").doesNotContain("s3cret");
    assertThat(new GitCredentials.SshKey(PEM, "pp-s3cret", "h1\nh2\n").toString())
        .doesNotContain("c2VjcmV0")
        .doesNotContain("pp-s3cret")
        .contains("2 lines");
  }

  @Test
  void fingerprintsTellCredentialsApartWithoutShowingThem() {
    String one = new GitCredentials.Basic("me", "one").fingerprint();
    assertThat(one).isEqualTo(new GitCredentials.Basic("me", "one").fingerprint()).matches("[0-9a-f]{16}");
    assertThat(one)
        .isNotEqualTo(new GitCredentials.Basic("me", "two").fingerprint())
        .isNotEqualTo(new GitCredentials.None().fingerprint());
    assertThat(new GitCredentials.SshKey(PEM, null, "a").fingerprint())
        .isNotEqualTo(new GitCredentials.SshKey(PEM, null, "b").fingerprint());
  }
}
