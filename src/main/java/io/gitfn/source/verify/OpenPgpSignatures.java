package io.gitfn.source.verify;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Optional;
import org.bouncycastle.bcpg.sig.IssuerFingerprint;
import org.bouncycastle.openpgp.PGPException;
import org.bouncycastle.openpgp.PGPSignature;
import org.bouncycastle.openpgp.PGPSignatureList;
import org.bouncycastle.openpgp.PGPSignatureSubpacketVector;
import org.bouncycastle.openpgp.PGPUtil;
import org.bouncycastle.openpgp.bc.BcPGPObjectFactory;
import org.bouncycastle.openpgp.operator.bc.BcPGPContentVerifierBuilderProvider;

/**
 * Checks an OpenPGP signature against a repository's keys, with Bouncy Castle's lightweight API: no JCA provider
 * is registered and no keyring outside the given keys is read.
 *
 * <p>A key counts as expired when it has expired by now, or had when the signature says it was made: the
 * signature's time is the signer's to choose, so a key that has expired vouches for nothing new, as gpg's
 * {@code EXPKEYSIG} and Flux have it. A revoked key vouches for nothing, whatever the revocation's time.
 */
final class OpenPgpSignatures {

  private OpenPgpSignatures() {}

  static SignatureCheck check(SignedPayload payload, VerificationKeys keys, Instant now) {
    PGPSignature signature;
    try {
      signature = read(payload.signature().orElseThrow());
    } catch (IOException | PGPException | RuntimeException e) {
      return SignatureCheck.refused(payload, Failure.BadSignature, "", "",
          "the OpenPGP signature does not parse (" + e.getMessage() + ")");
    }
    if (signature == null) {
      return SignatureCheck.refused(payload, Failure.BadSignature, "", "", "the OpenPGP block holds no signature");
    }
    Optional<String> issuerFingerprint = issuerFingerprint(signature);
    Optional<OpenPgpKey> found = issuerFingerprint.isPresent()
        ? keys.openPgpByFingerprint(issuerFingerprint.get())
        : keys.openPgpById(signature.getKeyID());
    String issuer = issuerFingerprint.orElse(HexFormat.of().withUpperCase().toHexDigits(signature.getKeyID()));
    if (found.isEmpty()) {
      return SignatureCheck.refused(payload, Failure.UnknownKey, issuer, "",
          "signed by OpenPGP key " + issuer + ", which is not among the repository's keys");
    }
    OpenPgpKey key = found.get();
    boolean valid;
    try {
      signature.init(new BcPGPContentVerifierBuilderProvider(), key.key());
      signature.update(payload.data());
      valid = signature.verify();
    } catch (PGPException | RuntimeException e) {
      valid = false;
    }
    if (!valid || !isDocumentSignature(signature)) {
      return SignatureCheck.refused(payload, Failure.BadSignature, key.fingerprint(), key.userId(),
          "the OpenPGP signature by " + key.fingerprint() + " does not match the " + payload.type()
              + "'s content");
    }
    if (key.revoked()) {
      return SignatureCheck.refused(payload, Failure.RevokedKey, key.fingerprint(), key.userId(),
          "signed by OpenPGP key " + key.fingerprint() + ", which is revoked");
    }
    Instant signedAt = signature.getCreationTime().toInstant();
    if (key.expiredAt(now) || key.expiredAt(signedAt)) {
      return SignatureCheck.refused(payload, Failure.ExpiredKey, key.fingerprint(), key.userId(),
          "signed by OpenPGP key " + key.fingerprint() + ", which expired at " + key.expires().orElseThrow());
    }
    return SignatureCheck.verified(payload, key.fingerprint(), key.userId(),
        "good OpenPGP signature by " + key.fingerprint() + (key.userId().isEmpty() ? "" : " (" + key.userId() + ")"));
  }

  private static PGPSignature read(byte[] armored) throws IOException, PGPException {
    try (InputStream in = PGPUtil.getDecoderStream(new ByteArrayInputStream(armored))) {
      Object object = new BcPGPObjectFactory(in).nextObject();
      if (object instanceof PGPSignatureList list && !list.isEmpty()) {
        return list.get(0);
      }
      return null;
    }
  }

  // Git signs the object as a detached document; any other signature type over the same bytes is not Git's.
  private static boolean isDocumentSignature(PGPSignature signature) {
    return signature.getSignatureType() == PGPSignature.BINARY_DOCUMENT
        || signature.getSignatureType() == PGPSignature.CANONICAL_TEXT_DOCUMENT;
  }

  private static Optional<String> issuerFingerprint(PGPSignature signature) {
    PGPSignatureSubpacketVector hashed = signature.getHashedSubPackets();
    IssuerFingerprint fingerprint = hashed == null ? null : hashed.getIssuerFingerprint();
    if (fingerprint == null) {
      return Optional.empty();
    }
    return Optional.of(HexFormat.of().withUpperCase().formatHex(fingerprint.getFingerprint()));
  }
}
