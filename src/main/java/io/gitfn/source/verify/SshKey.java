package io.gitfn.source.verify;

import java.security.PublicKey;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * One SSH public key from a Secret's {@code *.sshpub} entry (an {@code authorized_keys} line) or its
 * {@code allowed_signers} entry (git's {@code gpg.ssh.allowedSignersFile} format).
 *
 * @param type the key type as written, {@code ssh-ed25519}, {@code ssh-rsa}, {@code ecdsa-sha2-nistp256}, …
 * @param blob the key in SSH wire format, base64 as written: what a signature embeds, so the lookup key
 * @param comment the line's trailing comment, "" when none
 * @param principals who the key signs for ({@code allowed_signers} only; empty for {@code *.sshpub})
 * @param namespaces the {@code namespaces="…"} option; empty means every namespace
 * @param validAfter the {@code valid-after} option
 * @param validBefore the {@code valid-before} option
 * @param fingerprint {@code SHA256:…}, as {@code ssh-keygen -l} prints it
 * @param source the entry and line it came from, {@code keys.sshpub:3}
 */
public record SshKey(
    String type,
    String blob,
    String comment,
    List<String> principals,
    Set<String> namespaces,
    Optional<Instant> validAfter,
    Optional<Instant> validBefore,
    String fingerprint,
    String source,
    PublicKey publicKey) {

  public SshKey {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(blob, "blob");
    comment = Objects.requireNonNullElse(comment, "");
    principals = List.copyOf(principals);
    namespaces = Set.copyOf(namespaces);
    Objects.requireNonNull(publicKey, "publicKey");
  }

  /** Who signed, as far as the Secret says: the principals, else the comment. */
  public String signer() {
    return principals.isEmpty() ? comment : String.join(",", principals);
  }

  boolean allowsNamespace(String namespace) {
    return namespaces.isEmpty() || namespaces.contains(namespace);
  }
}
