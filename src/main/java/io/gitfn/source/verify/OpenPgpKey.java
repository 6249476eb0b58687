package io.gitfn.source.verify;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import org.bouncycastle.openpgp.PGPPublicKey;

/**
 * One OpenPGP key (a primary key or one of its subkeys) from a Secret's {@code *.asc} entry.
 *
 * <p>A subkey carries its primary key's standing: it counts as expired or revoked when either is, since a signature
 * by a subkey is only as good as the primary key that bound it.
 *
 * @param fingerprint the key's own fingerprint, uppercase hex
 * @param primaryFingerprint the primary key's fingerprint (the same for a primary key)
 * @param userId the primary key's first user ID, "" when it has none
 * @param created when the key was made
 * @param expires when it stops being valid, from its self-signature (a subkey's binding signature), or the primary
 *     key's expiry when that is earlier
 * @param revoked whether the key, or its primary key, carries a revocation
 * @param entry the Secret entry it came from
 */
public record OpenPgpKey(
    String fingerprint,
    String primaryFingerprint,
    String userId,
    Instant created,
    Optional<Instant> expires,
    boolean revoked,
    String entry,
    PGPPublicKey key) {

  public OpenPgpKey {
    Objects.requireNonNull(fingerprint, "fingerprint");
    Objects.requireNonNull(key, "key");
  }

  /** The 64-bit key ID, which an OpenPGP signature names when it has no issuer fingerprint. */
  public long keyId() {
    return key.getKeyID();
  }

  boolean expiredAt(Instant when) {
    return expires.map(e -> !when.isBefore(e)).orElse(false);
  }
}
