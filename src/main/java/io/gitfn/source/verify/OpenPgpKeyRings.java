package io.gitfn.source.verify;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import org.bouncycastle.openpgp.PGPException;
import org.bouncycastle.openpgp.PGPPublicKey;
import org.bouncycastle.openpgp.PGPPublicKeyRing;
import org.bouncycastle.openpgp.PGPPublicKeyRingCollection;
import org.bouncycastle.openpgp.PGPUtil;
import org.bouncycastle.openpgp.operator.bc.BcKeyFingerprintCalculator;

/**
 * Reads a {@code *.asc} entry: one or more armored OpenPGP public key blocks, each with one or more keys.
 *
 * <p>Expiry and revocation come from the keys' own self-signatures as the Secret gives them; they are not checked
 * cryptographically, because the Secret is the trust root: whoever can write it can replace the keys outright.
 */
final class OpenPgpKeyRings {

  private static final String BEGIN = "-----BEGIN PGP PUBLIC KEY BLOCK-----";
  private static final String END = "-----END PGP PUBLIC KEY BLOCK-----";
  private static final String PRIVATE = "-----BEGIN PGP PRIVATE KEY BLOCK-----";

  private OpenPgpKeyRings() {}

  /** The keys in {@code data}; {@code room} is how many more keys the Secret may hold. */
  static List<OpenPgpKey> parse(String entry, byte[] data, int room) throws KeyDataException {
    String text = new String(data, StandardCharsets.US_ASCII);
    if (text.contains(PRIVATE)) {
      throw new KeyDataException("entry " + entry
          + " holds an OpenPGP private key; put only public keys in the Secret (gpg --export --armor)");
    }
    List<OpenPgpKey> keys = new ArrayList<>();
    int from = text.indexOf(BEGIN);
    if (from < 0) {
      throw new KeyDataException(
          "entry " + entry + " has no '" + BEGIN + "' line; export the key with gpg --export --armor");
    }
    while (from >= 0) {
      int line = lineOf(text, from);
      int end = text.indexOf(END, from);
      if (end < 0) {
        throw new KeyDataException("entry " + entry + ", line " + line + ": the key block has no '" + END + "' line");
      }
      byte[] block = text.substring(from, end + END.length()).getBytes(StandardCharsets.US_ASCII);
      for (OpenPgpKey key : block(entry, line, block)) {
        if (keys.size() >= room) {
          throw new KeyDataException(
              "entry " + entry + " brings the Secret over " + VerificationKeys.MAX_KEYS + " keys");
        }
        keys.add(key);
      }
      from = text.indexOf(BEGIN, end);
    }
    return keys;
  }

  private static List<OpenPgpKey> block(String entry, int line, byte[] block) throws KeyDataException {
    List<OpenPgpKey> keys = new ArrayList<>();
    try (InputStream in = PGPUtil.getDecoderStream(new ByteArrayInputStream(block))) {
      PGPPublicKeyRingCollection rings = new PGPPublicKeyRingCollection(in, new BcKeyFingerprintCalculator());
      for (PGPPublicKeyRing ring : rings) {
        PGPPublicKey primary = ring.getPublicKey();
        Optional<Instant> primaryExpiry = expiry(primary);
        String userId = first(primary.getUserIDs());
        String primaryFingerprint = fingerprint(primary);
        for (PGPPublicKey key : ring) {
          Optional<Instant> expires = key.isMasterKey() ? primaryExpiry : earlier(expiry(key), primaryExpiry);
          boolean revoked = primary.hasRevocation() || key.hasRevocation();
          keys.add(new OpenPgpKey(
              fingerprint(key), primaryFingerprint, userId, key.getCreationTime().toInstant(), expires, revoked,
              entry, key));
        }
      }
    } catch (IOException | PGPException | RuntimeException e) {
      throw new KeyDataException(
          "entry " + entry + ", line " + line + ": not an OpenPGP public key block (" + e.getMessage() + ")", e);
    }
    if (keys.isEmpty()) {
      throw new KeyDataException("entry " + entry + ", line " + line + ": the key block holds no key");
    }
    return keys;
  }

  static String fingerprint(PGPPublicKey key) {
    return HexFormat.of().withUpperCase().formatHex(key.getFingerprint());
  }

  private static Optional<Instant> expiry(PGPPublicKey key) {
    long seconds = key.getValidSeconds();
    return seconds <= 0 ? Optional.empty() : Optional.of(key.getCreationTime().toInstant().plusSeconds(seconds));
  }

  private static Optional<Instant> earlier(Optional<Instant> a, Optional<Instant> b) {
    if (a.isEmpty()) {
      return b;
    }
    if (b.isEmpty()) {
      return a;
    }
    return a.get().isBefore(b.get()) ? a : b;
  }

  private static String first(Iterator<String> userIds) {
    return userIds.hasNext() ? userIds.next() : "";
  }

  private static int lineOf(String text, int index) {
    int line = 1;
    for (int i = 0; i < index; i++) {
      if (text.charAt(i) == '\n') {
        line++;
      }
    }
    return line;
  }
}
