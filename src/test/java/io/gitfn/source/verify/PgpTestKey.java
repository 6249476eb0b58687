package io.gitfn.source.verify;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import org.bouncycastle.bcpg.ArmoredOutputStream;
import org.bouncycastle.bcpg.HashAlgorithmTags;
import org.bouncycastle.bcpg.PublicKeyAlgorithmTags;
import org.bouncycastle.bcpg.PublicKeyPacket;
import org.bouncycastle.bcpg.sig.KeyFlags;
import org.bouncycastle.crypto.AsymmetricCipherKeyPair;
import org.bouncycastle.crypto.generators.Ed25519KeyPairGenerator;
import org.bouncycastle.crypto.params.Ed25519KeyGenerationParameters;
import org.bouncycastle.openpgp.PGPException;
import org.bouncycastle.openpgp.PGPKeyPair;
import org.bouncycastle.openpgp.PGPKeyRingGenerator;
import org.bouncycastle.openpgp.PGPPublicKey;
import org.bouncycastle.openpgp.PGPPublicKeyRing;
import org.bouncycastle.openpgp.PGPSignature;
import org.bouncycastle.openpgp.PGPSignatureGenerator;
import org.bouncycastle.openpgp.PGPSignatureSubpacketGenerator;
import org.bouncycastle.openpgp.operator.bc.BcPGPContentSignerBuilder;
import org.bouncycastle.openpgp.operator.bc.BcPGPDigestCalculatorProvider;
import org.bouncycastle.openpgp.operator.bc.BcPGPKeyPair;

/** An OpenPGP Ed25519 key made in the test with Bouncy Castle, as gpg would make it: no gpg binary needed. */
public final class PgpTestKey {

  private static final SecureRandom RANDOM = new SecureRandom();

  private final PGPKeyPair primary;
  private final PGPKeyPair signing;
  private final PGPPublicKeyRing ring;

  private PgpTestKey(PGPKeyPair primary, PGPKeyPair signing, PGPPublicKeyRing ring) {
    this.primary = primary;
    this.signing = signing;
    this.ring = ring;
  }

  /** A key made now that never expires. */
  public static PgpTestKey generate(String userId) {
    return generate(userId, Instant.now(), null);
  }

  /** A key made at {@code created}, valid for {@code validFor} (null: forever) from its self-signature. */
  static PgpTestKey generate(String userId, Instant created, Duration validFor) {
    try {
      PGPKeyPair pair = keyPair(created);
      PGPSignatureSubpacketGenerator hashed = new PGPSignatureSubpacketGenerator();
      hashed.setSignatureCreationTime(false, Date.from(created));
      hashed.setKeyFlags(false, KeyFlags.CERTIFY_OTHER | KeyFlags.SIGN_DATA);
      hashed.setIssuerFingerprint(false, pair.getPublicKey());
      if (validFor != null) {
        hashed.setKeyExpirationTime(false, validFor.toSeconds());
      }
      PGPSignatureGenerator certifier = generator(pair);
      certifier.init(PGPSignature.POSITIVE_CERTIFICATION, pair.getPrivateKey());
      certifier.setHashedSubpackets(hashed.generate());
      PGPSignature certification = certifier.generateCertification(userId, pair.getPublicKey());
      PGPPublicKey certified = PGPPublicKey.addCertification(pair.getPublicKey(), userId, certification);
      return new PgpTestKey(pair, pair, new PGPPublicKeyRing(List.of(certified)));
    } catch (PGPException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * A primary key that only certifies, and a subkey that signs, valid for {@code subkeyValidFor} (null: forever):
   * how careful users keep their primary key offline.
   */
  static PgpTestKey withSigningSubkey(String userId, Duration subkeyValidFor) {
    try {
      Instant now = Instant.now();
      PGPKeyPair primary = keyPair(now);
      PGPKeyPair subkey = keyPair(now);
      PGPSignatureSubpacketGenerator certification = new PGPSignatureSubpacketGenerator();
      certification.setKeyFlags(false, KeyFlags.CERTIFY_OTHER);
      PGPKeyRingGenerator rings = new PGPKeyRingGenerator(PGPSignature.POSITIVE_CERTIFICATION, primary, userId,
          new BcPGPDigestCalculatorProvider().get(HashAlgorithmTags.SHA1), certification.generate(), null,
          contentSigner(), null);
      PGPSignatureSubpacketGenerator binding = new PGPSignatureSubpacketGenerator();
      binding.setKeyFlags(false, KeyFlags.SIGN_DATA);
      if (subkeyValidFor != null) {
        binding.setKeyExpirationTime(false, subkeyValidFor.toSeconds());
      }
      rings.addSubKey(subkey, binding.generate(), null, contentSigner());
      return new PgpTestKey(primary, subkey, rings.generatePublicKeyRing());
    } catch (PGPException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The same key with a revocation on its primary key, as {@code gpg --gen-revoke} and an import leave it. */
  PgpTestKey revoked() {
    try {
      PGPSignatureGenerator revoker = generator(primary);
      revoker.init(PGPSignature.KEY_REVOCATION, primary.getPrivateKey());
      PGPPublicKey primaryKey = ring.getPublicKey();
      PGPSignature revocation = revoker.generateCertification(primaryKey);
      return new PgpTestKey(primary, signing,
          PGPPublicKeyRing.insertPublicKey(ring, PGPPublicKey.addCertification(primaryKey, revocation)));
    } catch (PGPException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The signing key's fingerprint: the subkey's, when there is one. */
  String fingerprint() {
    return OpenPgpKeyRings.fingerprint(signing.getPublicKey());
  }

  /** {@code gpg --export --armor}. */
  public byte[] armoredPublicKey() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (ArmoredOutputStream armored = new ArmoredOutputStream(out)) {
      ring.encode(armored);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }

  /** A detached armored signature over {@code data}, made now, as {@code gpg -bsa} makes it for git. */
  byte[] sign(byte[] data) {
    try {
      PGPSignatureGenerator signer = generator(signing);
      signer.init(PGPSignature.BINARY_DOCUMENT, signing.getPrivateKey());
      PGPSignatureSubpacketGenerator hashed = new PGPSignatureSubpacketGenerator();
      hashed.setSignatureCreationTime(false, new Date());
      hashed.setIssuerFingerprint(false, signing.getPublicKey());
      signer.setHashedSubpackets(hashed.generate());
      signer.update(data);
      PGPSignature signature = signer.generate();
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      try (ArmoredOutputStream armored = new ArmoredOutputStream(out)) {
        signature.encode(armored);
      }
      return new String(out.toByteArray(), StandardCharsets.US_ASCII).replace("\r\n", "\n")
          .getBytes(StandardCharsets.US_ASCII);
    } catch (PGPException | IOException e) {
      throw new IllegalStateException(e);
    }
  }

  private static PGPSignatureGenerator generator(PGPKeyPair pair) {
    return new PGPSignatureGenerator(contentSigner(), pair.getPublicKey());
  }

  private static BcPGPContentSignerBuilder contentSigner() {
    return new BcPGPContentSignerBuilder(PublicKeyAlgorithmTags.EDDSA_LEGACY, HashAlgorithmTags.SHA256);
  }

  private static PGPKeyPair keyPair(Instant created) throws PGPException {
    Ed25519KeyPairGenerator generator = new Ed25519KeyPairGenerator();
    generator.init(new Ed25519KeyGenerationParameters(RANDOM));
    AsymmetricCipherKeyPair keys = generator.generateKeyPair();
    return new BcPGPKeyPair(PublicKeyPacket.VERSION_4, PublicKeyAlgorithmTags.EDDSA_LEGACY, keys, Date.from(created));
  }
}
