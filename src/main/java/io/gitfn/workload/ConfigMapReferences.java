package io.gitfn.workload;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.gitfn.api.function.Function;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Which ConfigMaps a Function reads (env {@code valueFrom.configMapKeyRef}; Kyma's Function has no ConfigMap mounts),
 * and the digest that rolls its Pods when one of them changes. ConfigMaps are not secret, so the digest is a plain
 * SHA-256.
 */
public final class ConfigMapReferences {

  private ConfigMapReferences() {}

  public static Set<String> of(Function fn) {
    Set<String> names = new TreeSet<>();
    for (EnvVar env : Objects.requireNonNullElse(fn.getSpec().getEnv(), List.<EnvVar>of())) {
      if (env.getValueFrom() != null && env.getValueFrom().getConfigMapKeyRef() != null
          && env.getValueFrom().getConfigMapKeyRef().getName() != null) {
        names.add(env.getValueFrom().getConfigMapKeyRef().getName());
      }
    }
    return names;
  }

  /**
   * {@code sha256:<hex>} of the ConfigMaps among {@code configMaps} that the Function reads (their names, keys and
   * values); empty when it reads none of them.
   */
  public static Optional<String> digest(Function fn, Map<String, ConfigMap> configMaps) {
    MessageDigest sha256 = sha256();
    boolean reads = false;
    for (String name : of(fn)) {
      ConfigMap configMap = configMaps.get(name);
      if (configMap == null) {
        continue;
      }
      reads = true;
      update(sha256, "configmap", name);
      new TreeMap<>(Objects.requireNonNullElse(configMap.getData(), Map.of()))
          .forEach((key, value) -> update(sha256, "data", key, value));
      new TreeMap<>(Objects.requireNonNullElse(configMap.getBinaryData(), Map.of()))
          .forEach((key, value) -> update(sha256, "binaryData", key, value));
    }
    return reads ? Optional.of("sha256:" + HexFormat.of().formatHex(sha256.digest())) : Optional.empty();
  }

  // Each part length-prefixed, so that no two different ConfigMaps hash alike by moving text between parts.
  private static void update(MessageDigest digest, String... parts) {
    for (String part : parts) {
      byte[] bytes = part.getBytes(StandardCharsets.UTF_8);
      digest.update((bytes.length + ":").getBytes(StandardCharsets.US_ASCII));
      digest.update(bytes);
    }
  }

  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("the JDK lacks SHA-256", e);
    }
  }
}
