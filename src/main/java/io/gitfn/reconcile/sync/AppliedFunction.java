package io.gitfn.reconcile.sync;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.gitfn.api.Annotations;
import io.gitfn.api.Labels;
import io.gitfn.api.function.Function;
import io.gitfn.api.function.FunctionSpec;
import io.gitfn.api.function.ScaleConfig;
import io.gitfn.source.Revision;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * The object gitfn server-side applies for one desired Function: only name, namespace, labels, annotations and
 * spec, so that gitfn owns nothing else; the repository label, the revision annotation, and the hash of
 * everything else it applies.
 *
 * @param hash what {@link FunctionSync#APPLIED_HASH_ANNOTATION} holds: a digest of the applied object without
 *     the revision, so that a new revision that leaves a Function as it was does not rewrite it
 */
record AppliedFunction(FunctionKey key, GenericKubernetesResource object, String hash) {

  private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();
  private static final ObjectMapper CANONICAL =
      new ObjectMapper().enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS);

  /** The object to apply for {@code desired}, placed in {@code namespace} and labelled for {@code owner}. */
  static AppliedFunction of(Function desired, String namespace, String owner, Revision revision) {
    String name = desired.getMetadata().getName();
    Map<String, String> labels = new TreeMap<>(nonNull(desired.getMetadata().getLabels()));
    labels.put(Labels.REPOSITORY, owner);
    Map<String, String> annotations = new TreeMap<>(nonNull(desired.getMetadata().getAnnotations()));
    // Git cannot choose these; they describe what gitfn did.
    annotations.remove(Annotations.REVISION);
    annotations.remove(Annotations.APPLIED_HASH);
    Map<String, Object> spec = spec(desired.getSpec());

    Map<String, Object> hashed = new LinkedHashMap<>();
    hashed.put("namespace", namespace);
    hashed.put("name", name);
    hashed.put("labels", labels);
    hashed.put("annotations", annotations);
    hashed.put("spec", spec);
    String hash = digest(hashed);
    annotations.put(Annotations.APPLIED_HASH, hash);
    annotations.put(Annotations.REVISION, revision.toString());

    GenericKubernetesResource object = new GenericKubernetesResource();
    object.setApiVersion(Function.GROUP + "/" + Function.VERSION);
    object.setKind("Function");
    object.setMetadata(
        new ObjectMetaBuilder()
            .withNamespace(namespace)
            .withName(name)
            .withLabels(labels)
            .withAnnotations(annotations)
            .build());
    object.setAdditionalProperty("spec", spec);
    return new AppliedFunction(new FunctionKey(namespace, name), object, hash);
  }

  /**
   * Whether {@code live} already holds everything this would apply, so applying it would change nothing. The
   * revision annotation is left out: a Function that a new revision does not change keeps the old one.
   */
  boolean isSatisfiedBy(GenericKubernetesResource live) {
    Map<String, String> annotations = new HashMap<>(object.getMetadata().getAnnotations());
    annotations.remove(Annotations.REVISION);
    // The hash catches a field removed in Git, which the live object would still hold; the comparison catches
    // a field changed in the cluster, which the hash cannot see.
    return SubTree.contains(live.getMetadata().getLabels(), object.getMetadata().getLabels())
        && SubTree.contains(live.getMetadata().getAnnotations(), annotations)
        && SubTree.contains(live.getAdditionalProperties().get("spec"), object.getAdditionalProperties().get("spec"));
  }

  /**
   * Whether gitfn sends {@code spec.replicas}. Not when Git leaves it out, and not when an HPA scales the
   * Function (scaleConfig with min below max): applying it would make gitfn its owner and undo the HPA's scaling.
   */
  static boolean sendsReplicas(FunctionSpec spec) {
    if (spec == null || spec.getReplicas() == null) {
      return false;
    }
    ScaleConfig scale = spec.getScaleConfig();
    return scale == null
        || scale.getMinReplicas() == null
        || scale.getMaxReplicas() == null
        || scale.getMinReplicas().equals(scale.getMaxReplicas());
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> spec(FunctionSpec spec) {
    if (spec == null) {
      return new LinkedHashMap<>();
    }
    Map<String, Object> tree = new LinkedHashMap<>(SERIALIZATION.convertValue(spec, Map.class));
    if (!sendsReplicas(spec)) {
      tree.remove("replicas");
    }
    return tree;
  }

  private static Map<String, String> nonNull(Map<String, String> map) {
    return map == null ? Map.of() : map;
  }

  private static String digest(Map<String, Object> tree) {
    try {
      byte[] json = CANONICAL.writeValueAsBytes(tree);
      byte[] sha = MessageDigest.getInstance("SHA-256").digest(json);
      return "sha256:" + HexFormat.of().formatHex(sha, 0, 16);
    } catch (JsonProcessingException | NoSuchAlgorithmException e) {
      throw new IllegalStateException("cannot hash a Function's applied form", e);
    }
  }
}
