package io.gitfn.image;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.StreamSupport;

/**
 * An image's config (the OCI {@code application/vnd.oci.image.config.v1+json} document) with layers put on top:
 * each new layer's {@code diff_id} goes after the ones it builds on, with a history entry, and the process the
 * image runs is set. Everything else the image it builds on says stays as it was, in the order it was. Times are
 * the epoch, so the same image and layers give the same bytes.
 */
public final class ImageConfig {

  /** A config is a few KiB; a larger one is refused before it is parsed. */
  public static final int MAX_BYTES = 1 << 20;
  static final String EPOCH = "1970-01-01T00:00:00Z";
  private static final ObjectMapper JSON = new ObjectMapper();

  private final ObjectNode config;

  private ImageConfig(ObjectNode config) {
    this.config = config;
  }

  /**
   * Reads the config of the image the new one builds on.
   *
   * @throws IOException when it is larger than {@link #MAX_BYTES}, not JSON, or has no {@code rootfs.diff_ids}
   */
  public static ImageConfig parse(byte[] bytes) throws IOException {
    if (bytes.length > MAX_BYTES) {
      throw new IOException("an image config of " + bytes.length + " bytes is larger than the cap of " + MAX_BYTES);
    }
    JsonNode node = JSON.readTree(bytes);
    if (!(node instanceof ObjectNode object) || !(node.path("rootfs").path("diff_ids") instanceof ArrayNode)) {
      throw new IOException("not an image config: it has no rootfs.diff_ids");
    }
    return new ImageConfig(object.deepCopy());
  }

  /** This config with {@code layer} on top, its history entry saying {@code createdBy}. */
  public ImageConfig withLayer(LayerDigests layer, String createdBy) {
    ObjectNode next = config.deepCopy();
    ((ArrayNode) next.path("rootfs").path("diff_ids")).add(layer.diffId());
    ArrayNode history = next.has("history") && next.get("history").isArray()
        ? (ArrayNode) next.get("history") : next.putArray("history");
    history.addObject().put("created", EPOCH).put("created_by", createdBy);
    next.put("created", EPOCH);
    return new ImageConfig(next);
  }

  /**
   * This config running {@code entrypoint} as {@code user} in {@code workingDir}, with {@code env} set over what
   * the image it builds on sets (a name it sets already keeps its place; a new one goes at the end, in the map's
   * order, which must be stable for the digest to be). The base image's command goes: an exec-form entrypoint is
   * the whole process.
   */
  public ImageConfig runs(List<String> entrypoint, String user, String workingDir, Map<String, String> env) {
    ObjectNode next = config.deepCopy();
    ObjectNode process = next.has("config") && next.get("config").isObject()
        ? (ObjectNode) next.get("config") : next.putObject("config");
    ArrayNode entry = process.putArray("Entrypoint");
    entrypoint.forEach(entry::add);
    process.remove("Cmd");
    process.put("User", user);
    process.put("WorkingDir", workingDir);
    // By name, in order: a name the image sets keeps its place (a LinkedHashMap's put does not move a key).
    Map<String, String> merged = new LinkedHashMap<>();
    if (process.path("Env") instanceof ArrayNode oldEnv) {
      for (JsonNode variable : oldEnv) {
        String text = variable.asText();
        int equals = text.indexOf('=');
        merged.put(equals < 0 ? text : text.substring(0, equals), text);
      }
    }
    env.forEach((name, value) -> merged.put(name, name + "=" + value));
    ArrayNode newEnv = JSON.createArrayNode();
    merged.values().forEach(newEnv::add);
    process.set("Env", newEnv);
    return new ImageConfig(next);
  }

  /** The layers' {@code diff_id}s, bottom first. */
  public List<String> diffIds() {
    return StreamSupport.stream(config.path("rootfs").path("diff_ids").spliterator(), false)
        .map(JsonNode::asText).toList();
  }

  /** The config's bytes, as pushed: compact JSON in the order the fields came. */
  public byte[] bytes() {
    try {
      return JSON.writeValueAsBytes(config);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a tree read from JSON writes as JSON", e);
    }
  }
}
