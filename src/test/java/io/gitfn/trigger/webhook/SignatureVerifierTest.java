package io.gitfn.trigger.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HexFormat;
import org.junit.jupiter.api.Test;

class SignatureVerifierTest {

  private final SignatureVerifier verifier = new SignatureVerifier();
  private final byte[] body = Samples.bytes("{\"ref\":\"refs/heads/main\"}");

  @Test
  void theHmacIsHmacSha256OfTheRawBody() {
    // RFC 4231, test case 2.
    assertThat(HexFormat.of().formatHex(
        SignatureVerifier.hmacSha256("Jefe", Samples.bytes("what do ya want for nothing?"))))
        .isEqualTo("5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
  }

  @Test
  void theRightSignatureVerifies() {
    Proof proof = Proof.prefixedHmac(Headers.of("X-Hub-Signature-256", Samples.sha256Header("s3cret", body)),
        "X-Hub-Signature-256");
    assertThat(verifier.verifies(proof, body, "s3cret")).isTrue();
  }

  @Test
  void upperCaseHexVerifiesToo() {
    Proof proof = Proof.bareHmac(Headers.of("X-Gitea-Signature", Samples.hmacHex("s3cret", body).toUpperCase()),
        "X-Gitea-Signature");
    assertThat(verifier.verifies(proof, body, "s3cret")).isTrue();
  }

  @Test
  void aWrongSecretOrAChangedBodyDoesNotVerify() {
    Proof proof = Proof.prefixedHmac(Headers.of("X-Signature", Samples.sha256Header("s3cret", body)), "X-Signature");
    assertThat(verifier.verifies(proof, body, "other")).isFalse();
    assertThat(verifier.verifies(proof, Samples.bytes("{\"ref\":\"refs/heads/evil\"}"), "s3cret")).isFalse();
  }

  @Test
  void aMissingSignatureNeverVerifies() {
    Proof proof = Proof.prefixedHmac(Headers.of(), "X-Signature");
    assertThat(proof).isInstanceOf(Proof.Absent.class);
    assertThat(verifier.verifies(proof, body, "s3cret")).isFalse();
  }

  @Test
  void onlyTheSha256PrefixIsAccepted() {
    String hex = Samples.hmacHex("s3cret", body);
    for (String value : new String[] {"sha1=" + hex, "SHA256=" + hex, "sha512=" + hex, hex, "sha256=", "sha256=zz"}) {
      Proof proof = Proof.prefixedHmac(Headers.of("X-Signature", value), "X-Signature");
      assertThat(proof).as(value).isInstanceOf(Proof.Absent.class);
      assertThat(verifier.verifies(proof, body, "s3cret")).as(value).isFalse();
    }
  }

  @Test
  void gitLabsTokenIsComparedWhole() {
    assertThat(verifier.verifies(new Proof.Token("s3cret"), body, "s3cret")).isTrue();
    assertThat(verifier.verifies(new Proof.Token("s3cre"), body, "s3cret")).isFalse();
    assertThat(verifier.verifies(new Proof.Token("s3cret "), body, "s3cret")).isFalse();
    // A token is not a signature of the body: the HMAC of the body under the secret does not pass as the token.
    assertThat(verifier.verifies(new Proof.Token(Samples.hmacHex("s3cret", body)), body, "s3cret")).isFalse();
  }

  @Test
  void anEmptySecretVerifiesNothing() {
    assertThat(verifier.verifies(new Proof.Token(""), body, "")).isFalse();
  }
}
