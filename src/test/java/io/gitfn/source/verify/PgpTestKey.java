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
import org.bouncycastle.openpgp.PGPPublicKey;
import org.bouncycastle.openpgp.PGPPublicKeyRing;
import org.bouncycastle.openpgp.PGPSignature;
import org.bouncycastle.openpgp.PGPSignatureGenerator;
import org.bouncycastle.openpgp.PGPSignatureSubpacketGenerator;
import org.bouncycastle.openpgp.operator.bc.BcPGPContentSignerBuilder;
import org.bouncycastle.openpgp.operator.bc.BcPGPKeyPair;

/** An OpenPGP Ed25519 key made in the test with Bouncy Castle, as gpg would make it: no gpg binary needed. */
final class PgpTestKey {

  private static final SecureRandom RANDOM = new SecureRandom();

  private final PGPKeyPair pair;
  private final PGPPublicKey publicKey;

  private PgpTestKey(PGPKeyPair pair, PGPPublicKey publicKey) {
    this.pair = pair;
    this.publicKey = publicKey;
  }

  /** A key made now that never expires. */
  static PgpTestKey generate(String userId) {
    return generate(userId, Instant.now(), null);
  }

  /** A key made at {@code created}, valid for {@code validFor} (null: forever) from its self-signature. */
  static PgpTestKey generate(String userId, Instant created, Duration validFor) {
    try {
      Ed25519KeyPairGenerator generator = new Ed25519KeyPairGenerator();
      generator.init(new Ed25519KeyGenerationParameters(RANDOM));
      AsymmetricCipherKeyPair keys = generator.generateKeyPair();
      PGPKeyPair pair = new BcPGPKeyPair(
          PublicKeyPacket.VERSION_4, PublicKeyAlgorithmTags.EDDSA_LEGACY, keys, Date.from(created));
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
      return new PgpTestKey(pair, PGPPublicKey.addCertification(pair.getPublicKey(), userId, certification));
    } catch (PGPException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The same key with a revocation signature added, as {@code gpg --gen-revoke} and an import would leave it. */
  PgpTestKey revoked() {
    try {
      PGPSignatureGenerator revoker = generator(pair);
      revoker.init(PGPSignature.KEY_REVOCATION, pair.getPrivateKey());
      PGPSignature revocation = revoker.generateCertification(publicKey);
      return new PgpTestKey(pair, PGPPublicKey.addCertification(publicKey, revocation));
    } catch (PGPException e) {
      throw new IllegalStateException(e);
    }
  }

  String fingerprint() {
    return OpenPgpKeyRings.fingerprint(publicKey);
  }

  /** {@code gpg --export --armor}. */
  byte[] armoredPublicKey() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (ArmoredOutputStream armored = new ArmoredOutputStream(out)) {
      new PGPPublicKeyRing(List.of(publicKey)).encode(armored);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }

  /** A detached armored signature over {@code data}, made now, as {@code gpg -bsa} makes it for git. */
  byte[] sign(byte[] data) {
    try {
      PGPSignatureGenerator signer = generator(pair);
      signer.init(PGPSignature.BINARY_DOCUMENT, pair.getPrivateKey());
      PGPSignatureSubpacketGenerator hashed = new PGPSignatureSubpacketGenerator();
      hashed.setSignatureCreationTime(false, new Date());
      hashed.setIssuerFingerprint(false, publicKey);
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
    return new PGPSignatureGenerator(
        new BcPGPContentSignerBuilder(PublicKeyAlgorithmTags.EDDSA_LEGACY, HashAlgorithmTags.SHA256),
        pair.getPublicKey());
  }
}
