package io.gitfn.rollback;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.gitfn.api.Annotations;
import io.gitfn.api.function.Function;
import java.util.Map;

/**
 * The {@link Annotations#PINNED_REVISION} annotation, written by a JSON merge patch: server-side apply under the
 * {@code gitfn} field manager would make the sync own it, and the next sync would remove it.
 */
public final class Pins {

  private static final ObjectMapper JSON = new ObjectMapper();

  private Pins() {}

  /** The revision {@code fn} is pinned to by its annotation, or null. */
  public static String annotated(Function fn) {
    Map<String, String> annotations = fn.getMetadata().getAnnotations();
    return annotations == null ? null : annotations.get(Annotations.PINNED_REVISION);
  }

  /** Sets the pin of {@code fn} to {@code revision}. */
  public static void set(KubernetesClient client, Function fn, String revision) {
    patch(client, fn, revision);
  }

  /** Removes the pin of {@code fn}. */
  public static void clear(KubernetesClient client, Function fn) {
    patch(client, fn, null);
  }

  // In a merge patch, null removes the key.
  private static void patch(KubernetesClient client, Function fn, String revision) {
    ObjectNode patch = JSON.createObjectNode();
    patch.putObject("metadata").putObject("annotations").put(Annotations.PINNED_REVISION, revision);
    client.resources(Function.class).inNamespace(fn.getMetadata().getNamespace())
        .withName(fn.getMetadata().getName())
        .patch(PatchContext.of(PatchType.JSON_MERGE), patch.toString());
  }
}
