package io.gitfn.source.verify;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.Arrays;
import java.util.Base64;
import java.util.Optional;
import org.apache.sshd.common.signature.BuiltinSignatures;
import org.apache.sshd.common.signature.Signature;
import org.apache.sshd.common.util.buffer.ByteArrayBuffer;
import org.bouncycastle.crypto.params.Ed25519PublicKeyParameters;
import org.bouncycastle.crypto.signers.Ed25519Signer;
import org.bouncycastle.math.ec.rfc8032.Ed25519;

/**
 * Checks an SSH signature (OpenSSH's {@code SSHSIG} format, what {@code git -c gpg.format=ssh} writes) against a
 * repository's keys, with MINA sshd's signature algorithms (Bouncy Castle's for ed25519); the keys come in as an
 * argument, never from a global key database as JGit's own SSH verifier has it.
 *
 * <p>An SSH signature has no time of its own, so validity options are checked against the committer's or
 * tagger's time, as git does, and {@code valid-before} against now too: like an expired OpenPGP key, a key past
 * its validity vouches for nothing new. Signatures with SHA-1 ({@code ssh-rsa}) are refused, as ssh-keygen does.
 */
final class SshSignatures {

  private static final byte[] MAGIC = "SSHSIG".getBytes(StandardCharsets.US_ASCII);
  private static final String NAMESPACE = "git";
  private static final String BEGIN = "-----BEGIN SSH SIGNATURE-----";
  private static final String END = "-----END SSH SIGNATURE-----";

  private SshSignatures() {}

  static SignatureCheck check(SignedPayload payload, VerificationKeys keys, Instant now) {
    Parsed parsed;
    try {
      parsed = parse(payload.signature().orElseThrow());
    } catch (RuntimeException e) {
      return SignatureCheck.refused(payload, Failure.BadSignature, "", "",
          "the SSH signature does not parse (" + e.getMessage() + ")");
    }
    String fingerprint = SshKeyLines.fingerprint(parsed.keyBlob());
    Optional<SshKey> found = keys.sshByBlob(Base64.getEncoder().encodeToString(parsed.keyBlob()));
    if (found.isEmpty()) {
      return SignatureCheck.refused(payload, Failure.UnknownKey, fingerprint, "",
          "signed by SSH key " + fingerprint + ", which is not among the repository's keys");
    }
    SshKey key = found.get();
    if (!verifies(parsed, key, payload.data())) {
      return SignatureCheck.refused(payload, Failure.BadSignature, fingerprint, key.signer(),
          "the SSH signature by " + fingerprint + " does not match the " + payload.type() + "'s content");
    }
    if (!key.allowsNamespace(NAMESPACE)) {
      return SignatureCheck.refused(payload, Failure.UnknownKey, fingerprint, key.signer(),
          "SSH key " + fingerprint + " (" + key.source() + ") is allowed for namespaces "
              + String.join(",", key.namespaces()) + ", not git");
    }
    Instant signedAt = payload.signedAt();
    boolean tooEarly = key.validAfter().map(signedAt::isBefore).orElse(false);
    boolean tooLate = key.validBefore().map(b -> !signedAt.isBefore(b) || !now.isBefore(b)).orElse(false);
    if (tooEarly || tooLate) {
      return SignatureCheck.refused(payload, Failure.ExpiredKey, fingerprint, key.signer(),
          "SSH key " + fingerprint + " (" + key.source() + ") is valid"
              + key.validAfter().map(a -> " after " + a).orElse("")
              + key.validBefore().map(b -> " before " + b).orElse("")
              + "; the " + payload.type() + " is from " + signedAt);
    }
    return SignatureCheck.verified(payload, fingerprint, key.signer(),
        "good SSH signature by " + fingerprint + (key.signer().isEmpty() ? "" : " (" + key.signer() + ")"));
  }

  private record Parsed(byte[] keyBlob, String namespace, byte[] reserved, String hashAlgorithm, byte[] signature) {}

  private static Parsed parse(byte[] armored) {
    String text = new String(armored, StandardCharsets.US_ASCII).strip();
    if (!text.startsWith(BEGIN) || !text.endsWith(END)) {
      throw new IllegalArgumentException("no '" + BEGIN + "' … '" + END + "' block");
    }
    byte[] blob = Base64.getMimeDecoder().decode(text.substring(BEGIN.length(), text.length() - END.length()));
    ByteArrayBuffer buffer = new ByteArrayBuffer(blob);
    byte[] magic = new byte[MAGIC.length];
    buffer.getRawBytes(magic);
    if (!Arrays.equals(magic, MAGIC)) {
      throw new IllegalArgumentException("not an SSHSIG blob");
    }
    long version = buffer.getUInt();
    if (version != 1) {
      throw new IllegalArgumentException("SSHSIG version " + version + ", not 1");
    }
    byte[] keyBlob = buffer.getBytes();
    String namespace = buffer.getString();
    byte[] reserved = buffer.getBytes();
    String hashAlgorithm = buffer.getString();
    byte[] signature = buffer.getBytes();
    if (buffer.available() > 0) {
      throw new IllegalArgumentException("bytes after the signature");
    }
    return new Parsed(keyBlob, namespace, reserved, hashAlgorithm, signature);
  }

  private static boolean verifies(Parsed parsed, SshKey key, byte[] data) {
    if (!NAMESPACE.equals(parsed.namespace())) {
      return false;
    }
    String digestName = switch (parsed.hashAlgorithm()) {
      case "sha256" -> "SHA-256";
      case "sha512" -> "SHA-512";
      default -> null;
    };
    if (digestName == null) {
      return false;
    }
    try {
      String algorithm = new ByteArrayBuffer(parsed.signature()).getString();
      if (!algorithmFits(key.type(), algorithm)) {
        return false;
      }
      ByteArrayBuffer signed = new ByteArrayBuffer();
      signed.putRawBytes(MAGIC);
      signed.putString(NAMESPACE);
      signed.putBytes(parsed.reserved());
      signed.putString(parsed.hashAlgorithm());
      signed.putBytes(MessageDigest.getInstance(digestName).digest(data));
      if (algorithm.equals("ssh-ed25519")) {
        return ed25519(parsed, signed.getCompactData());
      }
      BuiltinSignatures factory = BuiltinSignatures.fromFactoryName(algorithm);
      if (factory == null || !factory.isSupported()) {
        return false;
      }
      Signature verifier = factory.create();
      verifier.initVerifier(null, key.publicKey());
      verifier.update(null, signed.getCompactData());
      return verifier.verify(null, parsed.signature());
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK has " + digestName, e);
    } catch (Exception e) {
      // sshd throws plain Exception for a malformed signature; that is a bad signature, not an error.
      return false;
    }
  }

  // Most signing keys are ed25519; Bouncy Castle verifies those about four times faster than sshd's EdDSA provider,
  // which is what keeps a long Range quick.
  private static boolean ed25519(Parsed parsed, byte[] signed) {
    ByteArrayBuffer key = new ByteArrayBuffer(parsed.keyBlob());
    key.getString();
    byte[] publicKey = key.getBytes();
    ByteArrayBuffer signature = new ByteArrayBuffer(parsed.signature());
    signature.getString();
    byte[] raw = signature.getBytes();
    if (publicKey.length != Ed25519PublicKeyParameters.KEY_SIZE || raw.length != Ed25519.SIGNATURE_SIZE
        || signature.available() > 0) {
      return false;
    }
    Ed25519Signer verifier = new Ed25519Signer();
    verifier.init(false, new Ed25519PublicKeyParameters(publicKey));
    verifier.update(signed, 0, signed.length);
    return verifier.verifySignature(raw);
  }

  private static boolean algorithmFits(String keyType, String algorithm) {
    if (keyType.equals("ssh-rsa")) {
      return algorithm.equals("rsa-sha2-256") || algorithm.equals("rsa-sha2-512");
    }
    return keyType.equals(algorithm);
  }
}
