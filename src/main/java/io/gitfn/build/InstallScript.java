package io.gitfn.build;

import io.gitfn.api.function.FunctionRuntime;
import io.gitfn.workload.ImageLayout;

/**
 * The shell script a buildless Pod's init container runs: put the source ConfigMap's files into the image layout
 * on the emptyDir as its index says, then install gitfn's runtime packages from their lock file and the Function's
 * dependencies, from its lock file when it has one. The same installs as the Dockerfiles', so a buildless Pod and
 * an image run the same thing. The script is the same for every version of a Function: what differs is the
 * ConfigMap, so a rollback changes one name in the Deployment.
 */
final class InstallScript {

  private InstallScript() {
  }

  static String of(FunctionRuntime runtime) {
    return copy() + (runtime.isNodejs() ? node() : python());
  }

  private static String node() {
    String flags = " --omit=dev --no-audit --no-fund";
    return "cd " + ImageLayout.RUNTIME_DIR + "\n"
        + step("npm ci" + flags, "gitfn's runtime packages")
        + "cd " + ImageLayout.FUNCTION_DIR + "\n"
        + "if [ -e package-lock.json ]; then\n"
        + "  " + step("npm ci" + flags, "the Function's dependencies from package-lock.json")
        + "else\n"
        + "  " + step("npm install" + flags, "the Function's dependencies from package.json (no package-lock.json)")
        + "fi\n";
  }

  private static String python() {
    String packages = ImageLayout.PYTHON_PACKAGES;
    // --target leaves the base image's site-packages alone; PYTHONPATH names both folders, as in an image.
    String install = "python3 -m pip install --target " + packages + " -r requirements.txt";
    return "cd " + ImageLayout.RUNTIME_DIR + "\n"
        + step(install, "gitfn's runtime packages")
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
    return command + " || { code=$?; echo \"gitfn: installing " + what + " failed with exit code $code\" >&2; "
        + "exit $code; }\n";
  }
}
