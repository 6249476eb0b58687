package io.gitfn.build;

import io.gitfn.api.function.FunctionRuntime;
import io.gitfn.workload.DesiredDeployment;
import io.gitfn.workload.ImageLayout;

/**
 * The Dockerfile that builds a Function's image on gitfn's own runtime server, one template per language.
 *
 * <p>The build context holds the handler, the dependency file and this Dockerfile in its root, gitfn's runtime
 * under {@code runtime/} and the optional package-registry Secret under {@code registry-config/}. A first stage
 * installs the runtime's packages from its lock file and the Function's dependencies; the image copies the
 * runtime, the handler and only the installed packages, so the package-registry config never reaches it (where
 * Kyma copies {@code .npmrc} or {@code pip.conf} into the image and deletes it in a later layer).
 *
 * <p>{@code RUN} commands use paths relative to {@code WORKDIR} only, and the image's command is an exec-form
 * {@code ENTRYPOINT}, which also drops whatever command a base image had. {@code DockerfileRehearsalIT} runs these
 * templates on the host and refuses any instruction it does not know, so extend both together.
 */
public final class Dockerfiles {

  /**
   * The version of these templates. It is part of every content key: change it whenever a template changes the
   * image it builds, so that every Function is rebuilt. (A change to the runtime's files changes the keys by
   * itself: the key covers their digest.)
   */
  public static final int TEMPLATE_VERSION = 2;

  /** The directory of the build context where the package-registry Secret is mounted. */
  public static final String REGISTRY_CONFIG_DIR = "registry-config";

  // Where the dependency stage keeps the package-registry config; the image's stage never copies it.
  private static final String REGISTRY_CONFIG = "/gitfn/" + REGISTRY_CONFIG_DIR;

  private Dockerfiles() {
  }

  /**
   * The Dockerfile for a runtime.
   *
   * @param baseImage the default of the {@code base_image} build arg; the build Job passes it explicitly as well
   * @param withPackageRegistry whether the context holds the package manager's config under registry-config/
   */
  public static String forRuntime(FunctionRuntime runtime, String baseImage, boolean withPackageRegistry) {
    return runtime.isNodejs()
        ? node(runtime, baseImage, withPackageRegistry)
        : python(runtime, baseImage, withPackageRegistry);
  }

  private static String node(FunctionRuntime runtime, String baseImage, boolean withPackageRegistry) {
    String runtimeDir = ImageLayout.RUNTIME_DIR;
    String functionDir = ImageLayout.FUNCTION_DIR;
    return header(runtime, baseImage)
        + "FROM ${base_image} AS dependencies\n"
        + "USER root\n"
        // npm reads this user config in both installs of this stage, and no stage after it.
        + registryConfig(withPackageRegistry, "NPM_CONFIG_USERCONFIG", ".npmrc")
        + "WORKDIR " + runtimeDir + "\n"
        + "COPY runtime/package.json runtime/package-lock.json ./\n"
        + "RUN npm ci --omit=dev --no-audit --no-fund\n"
        + "WORKDIR " + functionDir + "\n"
        + "COPY package.json ./\n"
        // npm creates no node_modules when there is nothing to install, and the COPY below needs one.
        + "RUN mkdir -p node_modules && npm install --omit=dev --no-audit --no-fund\n"
        + "\n"
        + "FROM ${base_image}\n"
        + "USER root\n"
        + "COPY runtime/ " + runtimeDir + "/\n"
        + "COPY --from=dependencies " + runtimeDir + "/node_modules " + runtimeDir + "/node_modules\n"
        + "COPY --from=dependencies " + functionDir + "/node_modules " + functionDir + "/node_modules\n"
        + "COPY handler.js package.json " + functionDir + "/\n"
        + runs(runtime);
  }

  private static String python(FunctionRuntime runtime, String baseImage, boolean withPackageRegistry) {
    String runtimeDir = ImageLayout.RUNTIME_DIR;
    String functionDir = ImageLayout.FUNCTION_DIR;
    String packages = ImageLayout.PYTHON_PACKAGES;
    // --target leaves the base image's site-packages alone; PYTHONPATH names both folders.
    String install = "python3 -m pip install --target " + packages + " -r requirements.txt\n";
    return header(runtime, baseImage)
        + "FROM ${base_image} AS dependencies\n"
        + "USER root\n"
        // As environment, not flags, so that an older pip in an overridden base image ignores what it lacks.
        + "ENV PIP_DISABLE_PIP_VERSION_CHECK=1\n"
        + "ENV PIP_ROOT_USER_ACTION=ignore\n"
        + registryConfig(withPackageRegistry, "PIP_CONFIG_FILE", "pip.conf")
        + "WORKDIR " + runtimeDir + "\n"
        + "COPY runtime/requirements.txt ./\n"
        + "RUN " + install
        + "WORKDIR " + functionDir + "\n"
        + "COPY requirements.txt ./\n"
        // pip creates no folder for an empty requirements.txt, and the COPY below needs one.
        + "RUN mkdir -p " + packages + " && " + install
        + "\n"
        + "FROM ${base_image}\n"
        + "USER root\n"
        + "COPY runtime/ " + runtimeDir + "/\n"
        + "COPY --from=dependencies " + runtimeDir + "/" + packages + " " + runtimeDir + "/" + packages + "\n"
        + "COPY --from=dependencies " + functionDir + "/" + packages + " " + functionDir + "/" + packages + "\n"
        + "COPY handler.py requirements.txt " + functionDir + "/\n"
        + runs(runtime);
  }

  /** The package manager reads the Secret's file through a variable set in the dependency stage only. */
  private static String registryConfig(boolean withPackageRegistry, String variable, String file) {
    if (!withPackageRegistry) {
      return "";
    }
    return "COPY " + REGISTRY_CONFIG_DIR + "/" + file + " " + REGISTRY_CONFIG + "/" + file + "\n"
        + "ENV " + variable + "=" + REGISTRY_CONFIG + "/" + file + "\n";
  }

  /** The environment, working directory, user and entrypoint of {@link RuntimeImageConfig}, as instructions. */
  private static String runs(FunctionRuntime runtime) {
    RuntimeImageConfig config = RuntimeImageConfig.of(runtime);
    StringBuilder out = new StringBuilder();
    config.env().forEach((name, value) -> out.append("ENV ").append(name).append('=').append(value).append('\n'));
    return out.append("WORKDIR ").append(config.workingDir()).append('\n')
        .append("USER ").append(config.user()).append('\n')
        .append("ENTRYPOINT [").append(String.join(", ", config.entrypoint().stream().map(a -> '"' + a + '"').toList()))
        .append("]\n").toString();
  }

  private static String header(FunctionRuntime runtime, String baseImage) {
    return "# gitfn Dockerfile template " + TEMPLATE_VERSION + " for " + runtime.value() + "\n"
        + "ARG base_image=" + baseImage + "\n\n";
  }
}
