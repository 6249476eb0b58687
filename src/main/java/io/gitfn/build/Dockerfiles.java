package io.gitfn.build;

import io.gitfn.api.function.FunctionRuntime;

/**
 * The Dockerfile that builds a Function's image, one template per language (reference §4.3).
 *
 * <p>Where Kyma copies {@code .npmrc} or {@code pip.conf} into the image and deletes it later, so the credentials
 * stay in a layer, these templates install dependencies in a first stage and copy only the installed packages
 * into the image. The package-registry config never reaches the pushed image.
 *
 * <p>The build context is flat: the handler, the dependency file and the Dockerfile sit in its root, with the
 * optional package-registry Secret under {@code registry-config/}.
 */
public final class Dockerfiles {

  /**
   * The version of these templates. It is part of every content key: change it whenever a template changes the
   * image it builds, so that every Function is rebuilt.
   */
  public static final int TEMPLATE_VERSION = 1;

  /** The directory of the build context where the package-registry Secret is mounted. */
  public static final String REGISTRY_CONFIG_DIR = "registry-config";

  static final String PYTHON_SITE_PACKAGES = "/kubeless/lib.python3.12/site-packages";

  private Dockerfiles() {
  }

  /**
   * The Dockerfile for a runtime.
   *
   * @param baseImage the default of the {@code base_image} build arg; the build Job passes it explicitly as well
   * @param withPackageRegistry whether the context holds the package manager's config under registry-config/
   */
  public static String forRuntime(FunctionRuntime runtime, String baseImage, boolean withPackageRegistry) {
    return RuntimeFiles.isNode(runtime)
        ? node(runtime, baseImage, withPackageRegistry)
        : python(runtime, baseImage, withPackageRegistry);
  }

  private static String node(FunctionRuntime runtime, String baseImage, boolean withPackageRegistry) {
    String npmrc = withPackageRegistry ? "COPY " + REGISTRY_CONFIG_DIR + "/.npmrc ./.npmrc\n" : "";
    return header(runtime, baseImage)
        + "FROM ${base_image} AS dependencies\n"
        + "USER root\n"
        + "WORKDIR /usr/src/app/function\n"
        + "COPY package.json ./\n"
        + npmrc
        // npm creates no node_modules when there is nothing to install, and the COPY below needs one.
        + "RUN mkdir -p node_modules && npm install --omit=dev\n"
        + "\n"
        + "FROM ${base_image}\n"
        + "USER root\n"
        + "COPY --from=dependencies /usr/src/app/function/node_modules /usr/src/app/function/node_modules\n"
        + "COPY package.json handler.js /usr/src/app/function/\n"
        + "WORKDIR /usr/src/app\n"
        + "USER 1000\n";
  }

  private static String python(FunctionRuntime runtime, String baseImage, boolean withPackageRegistry) {
    String pipConf = withPackageRegistry ? "COPY " + REGISTRY_CONFIG_DIR + "/pip.conf /etc/pip.conf\n" : "";
    return header(runtime, baseImage)
        + "FROM ${base_image} AS dependencies\n"
        + "USER root\n"
        + "WORKDIR /kubeless\n"
        + "COPY requirements.txt ./\n"
        + pipConf
        // The runtime container's PYTHONPATH (§5.4) names this directory, so packages installed here are found.
        + "RUN mkdir -p " + PYTHON_SITE_PACKAGES + " && pip install --no-cache-dir --target="
        + PYTHON_SITE_PACKAGES + " -r requirements.txt\n"
        + "\n"
        + "FROM ${base_image}\n"
        + "USER root\n"
        + "ENV KUBELESS_INSTALL_VOLUME=/kubeless\n"
        + "COPY --from=dependencies " + PYTHON_SITE_PACKAGES + " " + PYTHON_SITE_PACKAGES + "\n"
        + "COPY requirements.txt handler.py /kubeless/\n"
        + "USER 1000\n";
  }

  private static String header(FunctionRuntime runtime, String baseImage) {
    return "# gitfn Dockerfile template " + TEMPLATE_VERSION + " for " + runtime.value() + "\n"
        + "ARG base_image=" + baseImage + "\n";
  }
}
