package io.gitfn.build;

import io.gitfn.api.function.FunctionRuntime;
import io.gitfn.workload.ImageLayout;
import java.util.List;

/**
 * The shell script a buildless Pod's init container runs: put the source ConfigMap's files into the image layout
 * on the emptyDir as its index says, then install gitfn's runtime packages from their lock file and the Function's
 * dependencies, from its lock file when it has one. The same installs as the Dockerfiles', so a buildless Pod and
 * an image run the same thing. The script is the same for every version of a Function: what differs is the
 * ConfigMap, so a rollback changes one name in the Deployment.
 *
 * <p>With a dependency cache ({@link BuildlessDeployment#CACHE}, a PersistentVolumeClaim), the installed packages
 * are kept under a key of the files that decide them: the runtime, gitfn's lock file and the Function's dependency
 * files. A Pod whose key is there copies the packages and installs nothing, so a revert, a handler-only change and
 * every replica after the first start without npm or pip. An entry is written under a temporary name and renamed
 * into place, so a Pod never reads half an entry, and when two Pods race the second rename fails and its copy is
 * dropped. The cache is an optimisation only: when it cannot be written (full, read-only, wrong owner) the Pod
 * installs as it would without one, and says so. Entries not used for {@value #CACHE_DAYS} days are removed.
 */
final class InstallScript {

  private InstallScript() {
  }

  /** How long a cache entry no Pod has used stays. */
  static final int CACHE_DAYS = 7;

  static String of(FunctionRuntime runtime, boolean cached) {
    return of(runtime, cached, false);
  }

  /**
   * @param packed whether the installed folders go into a layer ({@link DependencyInstallJob}): then pip compiles
   *     no {@code .pyc} files, whose bytes differ from one install to the next, so the same inputs give the same
   *     layer; Python compiles in memory when it imports instead
   */
  static String of(FunctionRuntime runtime, boolean cached, boolean packed) {
    return of(runtime, cached, packed, true, null);
  }

  /**
   * @param withRuntime whether gitfn's runtime packages are installed too; an install Job whose runtime image the
   *     registry has already installs only the Function's ({@link DependencyInstallJob})
   * @param registrySecret the package-registry Secret the install mounts ({@link BuildlessDeployment}), or null for
   *     none. The Secret is optional, as in Kyma: a namespace without it installs from the default registries. When
   *     its config file is not there, the script says so, and a failed install ends with that, so the Function's
   *     status shows why a private package could not be found.
   */
  static String of(FunctionRuntime runtime, boolean cached, boolean packed, boolean withRuntime,
      String registrySecret) {
    String install = runtime.isNodejs() ? node(packed, withRuntime) : python(packed, withRuntime);
    return copy() + registryCheck(runtime, registrySecret) + (cached ? cached(runtime, install) : install);
  }

  /** Sets {@code registry_missing} to the words a failed step adds when the package-registry config is missing. */
  private static String registryCheck(FunctionRuntime runtime, String registrySecret) {
    if (registrySecret == null) {
      return "";
    }
    String file = RuntimeFiles.of(runtime).packageRegistryConfig();
    String missing = "the package-registry Secret " + registrySecret + " has no " + file + " in this namespace";
    return "registry_missing=\n"
        + "if [ ! -e " + BuildlessDeployment.REGISTRY_CONFIG + "/" + file + " ]; then\n"
        + "  registry_missing='; " + missing + ", so the default registry was used'\n"
        + "  echo 'gitfn: " + missing + ": installing from the default registry'\n"
        + "fi\n";
  }

  /**
   * {@code script}, ending with its exit code written to {@code exitFile}, whether it succeeds or fails: an install
   * Job's pack container starts beside the install and waits for that file ({@link DependencyInstallJob}). The code
   * is written to a temporary name and renamed, so the reader never sees half of it.
   */
  static String reportingExit(String script, String exitFile) {
    return "trap 'code=$?; echo $code > " + exitFile + ".tmp && mv " + exitFile + ".tmp " + exitFile
        + "; exit $code' EXIT\n" + script;
  }

  /**
   * The install, skipped when the cache has the key; the folders it fills are kept under the key afterwards. The
   * key hashes the file names too, so a lock file that appears or goes changes it.
   */
  private static String cached(FunctionRuntime runtime, String install) {
    String dir = BuildlessDeployment.CACHE_DIR_ENV;
    List<String> inputs = runtime.isNodejs()
        ? List.of("runtime/package-lock.json", "function/package.json", "function/package-lock.json")
        : List.of("runtime/requirements.txt", "function/requirements.txt");
    List<String> installed = runtime.isNodejs()
        ? List.of("runtime/node_modules", "function/node_modules")
        : List.of("runtime/" + ImageLayout.PYTHON_PACKAGES, "function/" + ImageLayout.PYTHON_PACKAGES);
    String app = BuildlessDeployment.APP;
    StringBuilder copyIn = new StringBuilder();
    StringBuilder clear = new StringBuilder("rm -rf");
    StringBuilder keep = new StringBuilder("mkdir -p");
    StringBuilder copyOut = new StringBuilder();
    for (String folder : installed) {
      String parent = folder.substring(0, folder.indexOf('/'));
      copyIn.append(" && cp -a \"$entry/").append(folder).append("\" ").append(app).append('/').append(parent)
          .append('/');
      clear.append(' ').append(app).append('/').append(folder);
      // npm makes no node_modules when there is nothing to install; an empty folder is kept as it is.
      keep.append(" \"$tmp/").append(parent).append("\" ").append(app).append('/').append(folder);
      copyOut.append(" && cp -a ").append(app).append('/').append(folder).append(" \"$tmp/").append(parent)
          .append("/\"");
    }
    return "cd " + app + "\n"
        + "key=$( { echo '" + runtime.value() + " " + ContentKey.TEMPLATE_VERSION + "'; for f in "
        + String.join(" ", inputs) + "; do [ -e \"$f\" ] && sha256sum \"$f\"; done; true; } | sha256sum | cut -c1-32)\n"
        + "entry=\"$" + dir + "/$key\"\n"
        // An entry that cannot be read whole (removed under it, say) is an install, from clean folders.
        + "if [ -d \"$entry\" ]" + copyIn + "; then\n"
        + "  echo \"gitfn: dependencies $key from the cache, nothing to install\"\n"
        + "  touch \"$entry\" 2>/dev/null || true\n"
        + "else\n"
        + "  " + clear + "\n"
        + "  echo \"gitfn: dependencies $key are not in the cache: installing\"\n"
        + install.indent(2)
        + "  tmp=\"$" + dir + "/.tmp-$HOSTNAME\"\n"
        + "  { rm -rf \"$tmp\" && " + keep + copyOut + " && mv -T \"$tmp\" \"$entry\"; } 2>/dev/null"
        + " && echo \"gitfn: kept dependencies $key in the cache\""
        + " || { rm -rf \"$tmp\" 2>/dev/null; [ -d \"$entry\" ] || echo \"gitfn: could not keep dependencies $key in"
        + " the cache; this Pod runs without it\" >&2; }\n"
        + "fi\n"
        + "find \"$" + dir + "\" -mindepth 1 -maxdepth 1 -mtime +" + CACHE_DAYS + " -exec rm -rf {} + 2>/dev/null"
        + " || true\n";
  }

  private static String node(boolean packed, boolean withRuntime) {
    String flags = " --omit=dev --no-audit --no-fund";
    return (withRuntime ? "cd " + ImageLayout.RUNTIME_DIR + "\n" + step("npm ci" + flags, "gitfn's runtime packages")
        : "")
        + "cd " + ImageLayout.FUNCTION_DIR + "\n"
        // npm makes no node_modules when there is nothing to install; the dependency layer is then the empty folder.
        + (packed ? "mkdir -p node_modules\n" : "")
        + "if [ -e package-lock.json ]; then\n"
        + "  " + step("npm ci" + flags, "the Function's dependencies from package-lock.json")
        + "else\n"
        + "  " + step("npm install" + flags, "the Function's dependencies from package.json (no package-lock.json)")
        + "fi\n";
  }

  private static String python(boolean packed, boolean withRuntime) {
    String packages = ImageLayout.PYTHON_PACKAGES;
    // --target leaves the base image's site-packages alone; PYTHONPATH names both folders, as in an image.
    String install = "python3 -m pip install --target " + packages + (packed ? " --no-compile" : "")
        + " -r requirements.txt";
    return (withRuntime ? "cd " + ImageLayout.RUNTIME_DIR + "\n" + step(install, "gitfn's runtime packages") : "")
        + "cd " + ImageLayout.FUNCTION_DIR + "\n"
        // pip creates no folder for an empty requirements.txt; PYTHONPATH names it anyway.
        + "mkdir -p " + packages + "\n"
        + step(install, "the Function's dependencies from requirements.txt");
  }

  // cp -L: a ConfigMap volume's files are links into its ..data folder.
  private static String copy() {
    String source = BuildlessDeployment.SOURCE;
    String app = BuildlessDeployment.APP;
    return "set -eu\n"
        + "while read -r key path; do\n"
        + "  mkdir -p \"" + app + "/${path%/*}\"\n"
        + "  cp -L \"" + source + "/$key\" \"" + app + "/$path\"\n"
        + "done < " + source + "/" + BuildlessSource.INDEX + "\n";
  }

  // The termination message is the log's tail, and the Function's Running condition quotes it: end it with what
  // failed.
  private static String step(String command, String what) {
    return command + " || { code=$?; echo \"gitfn: installing " + what + " failed with exit code $code"
        + "${registry_missing:-}\" >&2; exit $code; }\n";
  }
}
