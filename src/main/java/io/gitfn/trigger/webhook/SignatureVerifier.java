package io.gitfn.trigger.webhook;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/** Checks a delivery's {@link Proof} against one secret, in constant time. */
class SignatureVerifier {

  /** True when the proof was made with this secret over exactly these body bytes. */
  boolean verifies(Proof proof, byte[] body, String secret) {
    if (secret == null || secret.isEmpty()) {
      return false;
    }
    if (proof instanceof Proof.HmacSha256 hmac) {
      return MessageDigest.isEqual(hmacSha256(secret, body), hmac.mac());
    }
    if (proof instanceof Proof.Token token) {
      // GitLab sends the token, not a signature. Comparing digests keeps the time independent of the
      // secret's length as well as its content.
      return MessageDigest.isEqual(sha256(token.token()), sha256(secret));
    }
    return false;
  }

  /** The HMAC-SHA256 of a body under a secret, as the forges compute it. */
  static byte[] hmacSha256(String secret, byte[] body) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
      return mac.doFinal(body);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is part of every Java runtime", e);
    }
  }

  private static byte[] sha256(String text) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
    }
  }
}
