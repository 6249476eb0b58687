package io.gitfn.build;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.gitfn.api.Labels;
import io.gitfn.api.function.Function;
import io.gitfn.api.function.FunctionRuntime;
import io.gitfn.workload.ChildLabels;
import io.gitfn.workload.Owner;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * What a buildless Pod starts from: the Function's handler, dependency file and lock file (when it has one) and
 * gitfn's runtime server, as the data of an immutable ConfigMap named by a content key. These are the build
 * context's files without the Dockerfile, plus the lock file, so a buildless Pod and an image run the same files.
 *
 * <p>A ConfigMap key cannot hold {@code /}, so each file travels under a flat key ({@code runtime.lib.app.mjs}) and
 * the index {@value #INDEX} says where each key goes ({@code runtime.lib.app.mjs runtime/lib/app.mjs}). The init
 * container puts the files back from the index, so the Deployment names only the ConfigMap: a revert or a pin
 * re-points it at an earlier ConfigMap without knowing that version's files.
 *
 * @param key derived from the build plan's key ({@link ContentKey#derive}), so it covers the same inputs
 * @param files path in the image layout below {@code /gitfn} ({@code function/handler.js},
 *     {@code runtime/lib/app.mjs}) to content
 */
public record BuildlessSource(ContentKey key, Map<String, String> files) {

  static final int KEY_IN_NAME = 10;
  // A ConfigMap's name is also a label value in the Pods that mount it, which may have at most 63 characters.
  static final int NAME_LIMIT = 63;
  static final int NAME_HASH = 6;

  /** The {@code purpose} of the derived key. */
  static final String PURPOSE = "buildless-source";

  /**
   * The version of this ConfigMap's layout, part of the key: change it whenever the same inputs would give other
   * data, so that no immutable ConfigMap is asked to change.
   */
  public static final int LAYOUT_VERSION = 1;

  /** The folder below {@code /gitfn} of the Function's own files, as in an image ({@code ImageLayout}). */
  static final String FUNCTION = "function";

  /** The key of the index: one line per file, its key and its path below {@code /gitfn}, space-separated. */
  public static final String INDEX = "gitfn.files";

  /** The value of {@link Labels#RESOURCE} on the ConfigMaps, which the controller lists to collect old ones. */
  public static final String RESOURCE = "buildless-source";

  public BuildlessSource {
    Objects.requireNonNull(key, "key");
    files = Map.copyOf(files);
  }

  /**
   * The source of a build plan.
   *
   * @throws BuildContextTooLargeException when the lock file takes the data past the ConfigMap limit
   */
  public static BuildlessSource of(Function fn, FunctionBuildPlan plan, BuildSettings builds)
      throws BuildContextTooLargeException {
    FunctionRuntime runtime = fn.getSpec().getRuntime();
    RuntimeFiles names = RuntimeFiles.of(runtime);
    Map<String, String> files = new LinkedHashMap<>();
    String function = FUNCTION + "/";
    files.put(function + names.source(), plan.context().data().get(names.source()));
    files.put(function + names.dependencies(), plan.context().data().get(names.dependencies()));
    if (plan.lockFile() != null && names.lock() != null) {
      files.put(function + names.lock(), plan.lockFile());
    }
    RuntimeSource server = builds.runtimes().of(runtime);
    server.files().forEach((path, content) -> files.put(RuntimeSource.contextPath(path), content));
    BuildlessSource source = new BuildlessSource(plan.key().derive(PURPOSE, LAYOUT_VERSION), files);
    if (source.size() > BuildContext.LIMIT) {
      throw new BuildContextTooLargeException(ContentKey.describe(fn), source.size(), server.size());
    }
    return source;
  }

  /**
   * {@code <fn>-src-<first 10 of key>}: one name per Function and key, so a revert finds the ConfigMap of its key
   * still there, and a restarted controller applies the same one. When the whole would pass 63 characters the
   * Function's name is shortened and followed by {@value #NAME_HASH} hex digits of its SHA-256: two Functions whose
   * long names share a prefix and whose sources are equal would otherwise share a ConfigMap.
   */
  public static String name(Function fn, ContentKey key) {
    String suffix = "-src-" + key.value().substring(0, KEY_IN_NAME);
    String fnName = fn.getMetadata().getName();
    if (fnName.length() + suffix.length() <= NAME_LIMIT) {
      return fnName + suffix;
    }
    MessageDigest sha256 = ContentKey.sha256();
    String hash = "-" + HexFormat.of().formatHex(sha256.digest(fnName.getBytes(StandardCharsets.UTF_8)))
        .substring(0, NAME_HASH);
    String prefix = fnName.substring(0, NAME_LIMIT - hash.length() - suffix.length()).replaceAll("[-.]+$", "");
    return prefix + hash + suffix;
  }

  public String name(Function fn) {
    return name(fn, key);
  }

  /**
   * The ConfigMap: immutable, because its name already says what it holds (a changed source is a new key), and
   * owned by the Function, so it goes with it. The controller deletes those no history entry names any more.
   */
  public ConfigMap configMap(Function fn) {
    return configMap(fn, name(fn));
  }

  /** The same ConfigMap under another name, such as the install Job's that it feeds. */
  public ConfigMap configMap(Function fn, String name) {
    Map<String, String> labels = new LinkedHashMap<>(ChildLabels.ofFunction(fn));
    labels.put(Labels.CONTENT_KEY, key.tag());
    labels.put(Labels.RESOURCE, RESOURCE);
    return new ConfigMapBuilder()
        .withNewMetadata()
        .withName(name)
        .withNamespace(fn.getMetadata().getNamespace())
        .withLabels(labels)
        .withOwnerReferences(Owner.of(fn))
        .endMetadata()
        .withImmutable(true)
        .withData(data())
        .build();
  }

  /**
   * These files as an install Job installs from them: without the Function's handler, and with the dependency files
   * as {@link InstallInputs} gives them (no package name or version). Functions with the same dependencies share
   * that Job, and it makes no difference to what it installs which Function came first.
   */
  public BuildlessSource forInstall(FunctionRuntime runtime) {
    RuntimeFiles names = RuntimeFiles.of(runtime);
    Map<String, String> rest = new LinkedHashMap<>(files);
    rest.remove(FUNCTION + "/" + names.source());
    rest.computeIfPresent(FUNCTION + "/" + names.dependencies(),
        (path, text) -> InstallInputs.dependencies(runtime, text));
    if (names.lock() != null) {
      rest.computeIfPresent(FUNCTION + "/" + names.lock(), (path, text) -> InstallInputs.lockFile(runtime, text));
    }
    return new BuildlessSource(key, rest);
  }

  /** ConfigMap key to content, the index included. */
  public Map<String, String> data() {
    Map<String, String> data = new TreeMap<>();
    StringBuilder index = new StringBuilder();
    new TreeMap<>(files).forEach((path, content) -> {
      data.put(dataKey(path), content);
      index.append(dataKey(path)).append(' ').append(path).append('\n');
    });
    data.put(INDEX, index.toString());
    return data;
  }

  /** Bytes of the keys and values in UTF-8, the index included, as the API server counts them. */
  public long size() {
    return data().entrySet().stream().mapToLong(e -> bytes(e.getKey()) + bytes(e.getValue())).sum();
  }

  // The runtime's files get the flat keys a build context gives them (RuntimeSource.contextKey), so RuntimeSource's
  // check that no two runtime files share a key holds here too; the Function's start with "function.".
  private static String dataKey(String path) {
    return path.replace('/', '.');
  }

  private static long bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8).length;
  }
}
