package io.gitfn.secrets;

import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * One encrypted Secret of a revision, decrypted, authenticated and checked: the Secret to apply, in the repository's
 * namespace and with {@code stringData} folded into {@code data}; the age recipient whose entry opened it; and a
 * digest of its content ({@link ContentDigest}). The Secret holds plaintext: it lives in memory only, each caller
 * gets its own copy, and {@link #toString()} shows its keys, never its values.
 *
 * @param file the file it was read from, as the repository names it
 * @param recipient the {@code age1...} recipient one of the identities answers to
 * @param digest the SHA-256 of its keys and decoded values, in hex
 */
public record DecryptedSecret(String file, Secret secret, String recipient, String digest) {

  public DecryptedSecret {
    Objects.requireNonNull(file, "file");
    Objects.requireNonNull(recipient, "recipient");
    Objects.requireNonNull(digest, "digest");
    Objects.requireNonNull(Objects.requireNonNull(secret, "secret").getMetadata(), "secret.metadata");
    secret = new SecretBuilder(secret).build();
  }

  /** The Secret, a fresh copy each call. */
  @Override
  public Secret secret() {
    return new SecretBuilder(secret).build();
  }

  @Override
  public String toString() {
    Set<String> keys = secret.getData() == null ? Set.of() : new TreeSet<>(secret.getData().keySet());
    return "DecryptedSecret[file=" + file + ", secret=" + secret.getMetadata().getNamespace() + "/"
        + secret.getMetadata().getName() + ", keys=" + keys + ", recipient=" + recipient + ", digest=" + digest
        + ", values hidden]";
  }
}
