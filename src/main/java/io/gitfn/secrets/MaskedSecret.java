package io.gitfn.secrets;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.gitfn.manifest.EncryptedDocument;
import io.gitfn.secrets.sops.SopsException;
import io.gitfn.secrets.sops.SopsFile;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * An encrypted Secret as it can be shown without a key ({@code gitfn render} without {@code --age-identity}): its
 * name, namespace, labels, annotations and type as the file has them in clear, {@value SopsFile#ENCRYPTED} for each
 * of those sops encrypted, and every key of {@code data} and {@code stringData} with {@value SopsFile#ENCRYPTED}, or
 * {@value #NOT_SHOWN} when sops left that value in clear, in place of its value. Nothing is decrypted or checked: the
 * controller may still refuse the file.
 */
public final class MaskedSecret {

  /** In place of a value of {@code data} or {@code stringData} that the file holds in clear. */
  public static final String NOT_SHOWN = "<not shown>";

  private MaskedSecret() {}

  /** @throws SecretException when the file cannot be read as SOPS at all (too large, not YAML, no sops block) */
  public static Secret of(EncryptedDocument document) throws SecretException {
    ObjectNode outline;
    try {
      outline = SopsFile.outline(document.file(), document.content());
    } catch (SopsException e) {
      throw SecretException.of(e);
    }
    JsonNode metadata = outline.path("metadata");
    Map<String, String> data = masked(outline.path("data"));
    Map<String, String> stringData = masked(outline.path("stringData"));
    return new SecretBuilder()
        .withNewMetadata()
        .withName(textOrNull(metadata.path("name")))
        .withNamespace(textOrNull(metadata.path("namespace")))
        .withLabels(texts(metadata.path("labels")))
        .withAnnotations(texts(metadata.path("annotations")))
        .endMetadata()
        .withType(textOrNull(outline.path("type")))
        .withImmutable(outline.path("immutable").isBoolean() ? outline.path("immutable").booleanValue() : null)
        .withData(data.isEmpty() ? null : data)
        .withStringData(stringData.isEmpty() ? null : stringData)
        .build();
  }

  private static Map<String, String> masked(JsonNode values) {
    Map<String, String> masked = new LinkedHashMap<>();
    for (Iterator<Map.Entry<String, JsonNode>> entries = values.fields(); entries.hasNext(); ) {
      Map.Entry<String, JsonNode> entry = entries.next();
      masked.put(entry.getKey(), entry.getValue().asText().equals(SopsFile.ENCRYPTED) ? SopsFile.ENCRYPTED : NOT_SHOWN);
    }
    return masked;
  }

  private static Map<String, String> texts(JsonNode mapping) {
    Map<String, String> texts = new LinkedHashMap<>();
    for (Iterator<Map.Entry<String, JsonNode>> entries = mapping.fields(); entries.hasNext(); ) {
      Map.Entry<String, JsonNode> entry = entries.next();
      texts.put(entry.getKey(), entry.getValue().asText());
    }
    return texts.isEmpty() ? null : texts;
  }

  private static String textOrNull(JsonNode value) {
    return value.isValueNode() && !value.isNull() ? value.asText() : null;
  }
}
