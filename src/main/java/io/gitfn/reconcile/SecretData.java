package io.gitfn.reconcile;

import io.fabric8.kubernetes.api.model.Secret;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;

/** A Secret's values as text: {@code data} decoded from base64, then {@code stringData} on top, as the API does. */
public final class SecretData {

  private SecretData() {
  }

  /**
   * The decoded values; empty for no Secret.
   *
   * @throws IllegalArgumentException naming the key whose value is not base64 (never the value)
   */
  public static Map<String, String> of(Secret secret) {
    Map<String, String> data = new HashMap<>();
    if (secret == null) {
      return data;
    }
    if (secret.getData() != null) {
      for (Map.Entry<String, String> entry : secret.getData().entrySet()) {
        try {
          data.put(entry.getKey(), new String(Base64.getDecoder().decode(entry.getValue()), StandardCharsets.UTF_8));
        } catch (IllegalArgumentException e) {
          throw new IllegalArgumentException("key `" + entry.getKey() + "` of Secret "
              + secret.getMetadata().getNamespace() + "/" + secret.getMetadata().getName() + " is not base64");
        }
      }
    }
    if (secret.getStringData() != null) {
      data.putAll(secret.getStringData());
    }
    return data;
  }
}
