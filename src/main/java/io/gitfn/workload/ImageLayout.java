package io.gitfn.workload;

/**
 * Where a Function's image keeps gitfn's runtime and the Function: the Dockerfiles put the files there and set
 * these paths as defaults, and the Deployment's env (§5.4) names the same paths, so the two cannot drift apart.
 * Both runtimes have the same shape: the runtime's sources with its installed packages beside them, and the
 * Function's handler and dependency file with its installed packages beside them.
 */
public final class ImageLayout {

  /** The runtime server: {@code server.mjs} or {@code server.py} and the rest of its sources. */
  public static final String RUNTIME_DIR = "/gitfn/runtime";

  /** The Function: its handler, its dependency file, and its installed dependencies. */
  public static final String FUNCTION_DIR = "/gitfn/function";

  /** Python packages installed with {@code pip install --target}, below each of the two folders. */
  public static final String PYTHON_PACKAGES = "packages";

  private ImageLayout() {
  }

  /** {@code HANDLER_PATH} of Node.js Functions. */
  public static String nodeHandlerPath() {
    return FUNCTION_DIR + "/handler.js";
  }

  /**
   * {@code PYTHONPATH} of Python Functions: the Function's packages first, then the runtime's. A package the Function
   * installs itself wins over the one the runtime lends under the same name ({@code requests}, OpenTelemetry's, ...),
   * as in Kyma, whose runtime packages are in site-packages, after the Function's. The server itself still runs on
   * the runtime's own Bottle and cheroot: it finds them by the versions its requirements.txt pins.
   */
  public static String pythonPath() {
    return FUNCTION_DIR + "/" + PYTHON_PACKAGES + ":" + RUNTIME_DIR + "/" + PYTHON_PACKAGES;
  }
}
