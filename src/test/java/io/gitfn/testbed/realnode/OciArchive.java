package io.gitfn.testbed.realnode;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An OCI image archive (an image layout in a tar, what {@code skopeo copy oci-archive:} and
 * {@code ctr images import} read) of one uncompressed layer, made from files in memory: the real node's pause
 * image, and the tiny images tests push to its registry. No base image and no registry are needed.
 *
 * <pre>{@code
 * OciArchive.image("localhost/gitfn-pause:1").file("pause", binary, 0755).entrypoint("/pause").writeTo(path);
 * }</pre>
 */
public final class OciArchive {

  // Sorted keys: the same files make the same bytes, so the same digests, in every JVM.
  private static final ObjectMapper JSON =
      new ObjectMapper().configure(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS, true);

  private final String name;
  private final Map<String, Object[]> files = new LinkedHashMap<>();
  private List<String> entrypoint = List.of();
  private final List<String> env = new ArrayList<>(List.of("PATH=/"));

  private OciArchive(String name) {
    this.name = name;
  }

  /** An image whose archive names it {@code name} (for {@code ctr images import}; skopeo takes its own name). */
  public static OciArchive image(String name) {
    return new OciArchive(name);
  }

  /** A file at {@code path} (relative to the image's root) with {@code mode}, for example {@code 0755}. */
  public OciArchive file(String path, byte[] content, int mode) {
    files.put(path.replaceFirst("^/+", ""), new Object[] {content, mode});
    return this;
  }

  public OciArchive file(String path, Path content, int mode) {
    try {
      return file(path, Files.readAllBytes(content), mode);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public OciArchive entrypoint(String... command) {
    entrypoint = List.of(command);
    return this;
  }

  public OciArchive env(String variable) {
    env.add(variable);
    return this;
  }

  /** Writes the archive to {@code archive} and returns that path. */
  public Path writeTo(Path archive) {
    Tar layer = new Tar();
    for (var file : files.entrySet()) {
      String path = file.getKey();
      for (int slash = path.indexOf('/'); slash > 0; slash = path.indexOf('/', slash + 1)) {
        layer.folder(path.substring(0, slash));
      }
      layer.file(path, (byte[]) file.getValue()[0], (int) file.getValue()[1]);
    }
    byte[] layerBytes = layer.bytes();
    String layerDigest = digest(layerBytes);

    Map<String, Object> config = new LinkedHashMap<>();
    config.put("architecture", "amd64");
    config.put("os", "linux");
    config.put("config", Map.of("Entrypoint", entrypoint, "Env", env));
    config.put("rootfs", Map.of("type", "layers", "diff_ids", List.of(layerDigest)));
    byte[] configBytes = json(config);

    Map<String, Object> manifest = new LinkedHashMap<>();
    manifest.put("schemaVersion", 2);
    manifest.put("mediaType", "application/vnd.oci.image.manifest.v1+json");
    manifest.put("config", descriptor("application/vnd.oci.image.config.v1+json", configBytes, Map.of()));
    manifest.put("layers", List.of(descriptor("application/vnd.oci.image.layer.v1.tar", layerBytes, Map.of())));
    byte[] manifestBytes = json(manifest);

    // The tag is what follows the last colon, unless that colon is a registry's port.
    int colon = name.lastIndexOf(':');
    String tag = colon > name.lastIndexOf('/') ? name.substring(colon + 1) : "latest";
    Map<String, Object> index = new LinkedHashMap<>();
    index.put("schemaVersion", 2);
    index.put("mediaType", "application/vnd.oci.image.index.v1+json");
    index.put("manifests", List.of(descriptor("application/vnd.oci.image.manifest.v1+json", manifestBytes,
        Map.of("org.opencontainers.image.ref.name", tag, "io.containerd.image.name", name))));

    Tar archiveTar = new Tar()
        .file("oci-layout", json(Map.of("imageLayoutVersion", "1.0.0")), 0644)
        .file("index.json", json(index), 0644)
        .folder("blobs")
        .folder("blobs/sha256");
    for (byte[] blob : List.of(layerBytes, configBytes, manifestBytes)) {
      archiveTar.file("blobs/sha256/" + digest(blob).substring("sha256:".length()), blob, 0644);
    }
    try {
      Files.createDirectories(archive.toAbsolutePath().getParent());
      Files.write(archive, archiveTar.bytes());
      return archive;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + archive, e);
    }
  }

  private static Map<String, Object> descriptor(String mediaType, byte[] content, Map<String, String> annotations) {
    Map<String, Object> descriptor = new LinkedHashMap<>();
    descriptor.put("mediaType", mediaType);
    descriptor.put("digest", digest(content));
    descriptor.put("size", content.length);
    if (!annotations.isEmpty()) {
      descriptor.put("annotations", annotations);
    }
    return descriptor;
  }

  private static byte[] json(Object value) {
    try {
      return JSON.writeValueAsBytes(value);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static String digest(byte[] content) {
    try {
      return "sha256:" + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(content));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
