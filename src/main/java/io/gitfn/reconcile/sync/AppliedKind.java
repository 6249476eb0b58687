package io.gitfn.reconcile.sync;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceList;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.NonNamespaceOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.gitfn.api.Annotations;
import io.gitfn.manifest.ObjectType;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.Map;
import java.util.TreeMap;

/**
 * A kind gitfn applies as the file has it, without knowing its schema: a route (HTTPRoute, Ingress, APIRule) or
 * another kind the controller allows. The API server defaults fields of such an object, so the live one never equals
 * the file; what was applied is told by {@link Annotations#APPLIED_DIGEST} (a change in Git), and whether it still
 * holds every field the file sets (a change in the cluster, which the next apply undoes).
 */
final class AppliedKind implements ObjectKind<GenericKubernetesResource> {

  private static final ObjectMapper JSON = new ObjectMapper().configure(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS,
      true);

  private final ObjectType type;

  AppliedKind(ObjectType type) {
    this.type = type;
  }

  ObjectType objectType() {
    return type;
  }

  @Override
  public String name() {
    return type.kind();
  }

  @Override
  public Class<GenericKubernetesResource> type() {
    return GenericKubernetesResource.class;
  }

  @Override
  public NonNamespaceOperation<GenericKubernetesResource, GenericKubernetesResourceList,
      Resource<GenericKubernetesResource>> in(KubernetesClient client, String namespace) {
    return client.genericKubernetesResources(type.apiVersion(), type.kind()).inNamespace(namespace);
  }

  @Override
  public GenericKubernetesResource applied(GenericKubernetesResource desired, ObjectMeta metadata) {
    GenericKubernetesResource applied = new GenericKubernetesResource();
    applied.setApiVersion(type.apiVersion());
    applied.setKind(type.kind());
    Map<String, Object> content = new TreeMap<>(desired.getAdditionalProperties());
    content.remove("status");
    content.forEach(applied::setAdditionalProperty);
    Map<String, String> annotations = new TreeMap<>(metadata.getAnnotations());
    annotations.put(Annotations.APPLIED_DIGEST, digest(content));
    applied.setMetadata(new ObjectMetaBuilder(metadata).withAnnotations(annotations).build());
    return applied;
  }

  @Override
  public boolean sameContent(GenericKubernetesResource live, GenericKubernetesResource applied) {
    JsonNode liveContent = JSON.valueToTree(live.getAdditionalProperties());
    JsonNode appliedContent = JSON.valueToTree(applied.getAdditionalProperties());
    return holds(liveContent, appliedContent);
  }

  /** Whether {@code live} holds every field {@code applied} sets, with the same value; it may hold more. */
  static boolean holds(JsonNode live, JsonNode applied) {
    if (applied.isObject()) {
      if (!live.isObject()) {
        return false;
      }
      for (Iterator<Map.Entry<String, JsonNode>> fields = applied.fields(); fields.hasNext(); ) {
        Map.Entry<String, JsonNode> field = fields.next();
        if (!live.has(field.getKey()) || !holds(live.get(field.getKey()), field.getValue())) {
          return false;
        }
      }
      return true;
    }
    if (applied.isArray()) {
      if (!live.isArray() || live.size() != applied.size()) {
        return false;
      }
      for (int i = 0; i < applied.size(); i++) {
        if (!holds(live.get(i), applied.get(i))) {
          return false;
        }
      }
      return true;
    }
    // 80 in a file and 80 from the server may be an int and a long.
    return applied.isNumber() && live.isNumber() ? applied.decimalValue().compareTo(live.decimalValue()) == 0
        : applied.equals(live);
  }

  private String digest(Map<String, Object> content) {
    try {
      // Maps sorted by key at every depth: the file's order of fields is not content.
      byte[] canonical = JSON.writeValueAsBytes(content);
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(canonical)).substring(0, 32);
    } catch (NoSuchAlgorithmException | com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalStateException("cannot digest a " + type.kind(), e);
    }
  }

  @Override
  public String toString() {
    return type.toString();
  }
}
