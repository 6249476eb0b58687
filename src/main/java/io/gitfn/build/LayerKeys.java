package io.gitfn.build;

import io.gitfn.api.function.FunctionRuntime;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * The keys of the layers a Function's image is stacked from, each over exactly what its layer holds
 * (docs/functions.md#layers):
 * <ol>
 *   <li>the base image, named by its manifest digest, never unpacked;
 *   <li>the <em>runtime layer</em>: gitfn's runtime server files and their installed packages;
 *   <li>the <em>dependency layer</em>: the Function's installed packages;
 *   <li>the source layer: the handler and its files, keyed by the Function's content key ({@link ContentKey}).
 * </ol>
 * The base image and the runtime layer together with the dependency layer make the <em>dependency image</em>, which
 * an install Job pushes once and every Function with the same key builds on. Its tag is {@link #dependencyTag}.
 *
 * <p>Installed packages depend on the base image (its Node.js or Python, its libc for native code), so both installed
 * layers are keyed by its digest, never by its tag: a base image pushed again under the same tag gives new keys.
 */
public final class LayerKeys {

  /**
   * The version of the layered layout: what each layer holds and where. Change it whenever that changes, so that
   * every dependency image is made again.
   */
  public static final int LAYOUT_VERSION = 2;

  private static final Pattern DIGEST = Pattern.compile("sha256:[0-9a-f]{64}");

  private LayerKeys() {
  }

  /**
   * The runtime layer's key.
   *
   * @param runtimeFilesDigest {@link RuntimeSource#digest()} of the runtime's files
   * @param baseDigest the base image's manifest digest, {@code sha256:} and 64 hex digits
   */
  public static ContentKey runtime(FunctionRuntime runtime, String runtimeFilesDigest, String baseDigest) {
    MessageDigest sha256 = start("gitfn-runtime-layer", runtime, baseDigest);
    ContentKey.field(sha256, Objects.requireNonNull(runtimeFilesDigest, "runtimeFilesDigest"));
    return new ContentKey(HexFormat.of().formatHex(sha256.digest()));
  }

  /**
   * The dependency layer's key.
   *
   * @param dependencies the dependency file ({@code package.json}, {@code requirements.txt}); blank Node.js
   *     dependencies count as {@code {}}, as Kyma reads them, and a package's own name and version do not count
   *     ({@link InstallInputs})
   * @param lockFile the lock file beside it ({@code package-lock.json}), or null when there is none
   * @param registrySettings {@link PackageRegistrySettings#digest} of the package-registry config, empty without one
   */
  public static ContentKey dependencies(FunctionRuntime runtime, String baseDigest, String dependencies,
      String lockFile, String registrySettings) {
    MessageDigest sha256 = start("gitfn-dependency-layer", runtime, baseDigest);
    // What the install reads (InstallInputs), so that the key names the layer's bytes.
    ContentKey.field(sha256, InstallInputs.dependencies(runtime, RuntimeFiles.normalisedDependencies(runtime,
        dependencies)));
    // A lock file that appears or goes changes the key even when its text would hash like an absent one's.
    ContentKey.field(sha256, lockFile == null ? "no-lock-file" : "lock-file");
    ContentKey.field(sha256, lockFile == null ? "" : InstallInputs.lockFile(runtime, lockFile));
    ContentKey.field(sha256, Objects.requireNonNull(registrySettings, "registrySettings"));
    return new ContentKey(HexFormat.of().formatHex(sha256.digest()));
  }

  /**
   * The tag of the dependency image: the base image with the runtime layer and the dependency layer on top, and the
   * runtime's config. {@code deps-} and 32 hex digits of a key over both layers' keys.
   */
  public static String dependencyTag(ContentKey runtimeLayer, ContentKey dependencyLayer) {
    MessageDigest sha256 = ContentKey.sha256();
    ContentKey.field(sha256, "gitfn-dependency-image");
    ContentKey.field(sha256, runtimeLayer.value());
    ContentKey.field(sha256, dependencyLayer.value());
    return "deps-" + HexFormat.of().formatHex(sha256.digest()).substring(0, ContentKey.TAG_LENGTH);
  }

  /**
   * The tag of the runtime image: the base image with the runtime layer on top, and the runtime's config; every
   * dependency image of the runtime key is made from it. {@code runtime-} and 32 hex digits of a key over the layer's
   * key.
   */
  public static String runtimeTag(ContentKey runtimeLayer) {
    MessageDigest sha256 = ContentKey.sha256();
    ContentKey.field(sha256, "gitfn-runtime-image");
    ContentKey.field(sha256, runtimeLayer.value());
    return "runtime-" + HexFormat.of().formatHex(sha256.digest()).substring(0, ContentKey.TAG_LENGTH);
  }

  private static MessageDigest start(String purpose, FunctionRuntime runtime, String baseDigest) {
    Objects.requireNonNull(runtime, "runtime");
    if (baseDigest == null || !DIGEST.matcher(baseDigest).matches()) {
      throw new IllegalArgumentException("a base image is named by its manifest digest, sha256: and 64 hex digits,"
          + " not `" + baseDigest + "`");
    }
    MessageDigest sha256 = ContentKey.sha256();
    // Each field is length-prefixed, so no two different field lists hash the same bytes.
    ContentKey.field(sha256, purpose);
    ContentKey.field(sha256, Integer.toString(LAYOUT_VERSION));
    ContentKey.field(sha256, runtime.value());
    ContentKey.field(sha256, baseDigest);
    return sha256;
  }
}
