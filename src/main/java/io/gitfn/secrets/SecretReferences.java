package io.gitfn.secrets;

import io.fabric8.kubernetes.api.model.EnvVar;
import io.gitfn.api.function.Function;
import io.gitfn.api.function.SecretMount;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Which Secrets a Function reads, and the digest that rolls its Pods when one of them changes.
 *
 * <p>The digest is an HMAC keyed with a secret of the repository (its age identities), not a plain hash: it sits on
 * the Function and its Pod template, where anyone who may read Deployments sees it, and a plain hash of a short
 * password is a dictionary attack away from the password.
 */
public final class SecretReferences {

  private SecretReferences() {}

  /** The names of the Secrets the Function reads: env {@code valueFrom.secretKeyRef} and Kyma's secretMounts. */
  public static Set<String> of(Function fn) {
    Set<String> names = new TreeSet<>();
    for (EnvVar env : Objects.requireNonNullElse(fn.getSpec().getEnv(), List.<EnvVar>of())) {
      if (env.getValueFrom() != null && env.getValueFrom().getSecretKeyRef() != null
          && env.getValueFrom().getSecretKeyRef().getName() != null) {
        names.add(env.getValueFrom().getSecretKeyRef().getName());
      }
    }
    for (SecretMount mount : Objects.requireNonNullElse(fn.getSpec().getSecretMounts(),
        List.<SecretMount>of())) {
      if (mount.getSecretName() != null) {
        names.add(mount.getSecretName());
      }
    }
    return names;
  }

  /**
   * The keyed digest of the Secrets among {@code digests} that the Function reads, {@code hmac-sha256:<hex>}; empty
   * when it reads none of them.
   *
   * @param digests each applied Secret's content digest ({@link DecryptedSecret#digest()}), by name
   * @param key the repository's secret the HMAC is keyed with
   */
  public static Optional<String> digest(Function fn, Map<String, String> digests, byte[] key) {
    StringBuilder read = new StringBuilder();
    for (String name : of(fn)) {
      String digest = digests.get(name);
      if (digest != null) {
        read.append(name).append('=').append(digest).append('\n');
      }
    }
    if (read.isEmpty()) {
      return Optional.empty();
    }
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(key, "HmacSHA256"));
      return Optional.of("hmac-sha256:" + HexFormat.of().formatHex(
          mac.doFinal(read.toString().getBytes(StandardCharsets.UTF_8))));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("the JDK lacks HmacSHA256", e);
    }
  }
}
