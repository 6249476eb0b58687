package io.gitfn.build;

import io.gitfn.api.function.FunctionRuntime;

/**
 * The file names of a runtime's handler and dependencies, in the Git directory and in the build context.
 *
 * @param source {@code handler.js} or {@code handler.py}
 * @param dependencies {@code package.json} or {@code requirements.txt}
 * @param packageRegistryConfig the package manager's config file in the optional package-registry Secret
 * @param lock the dependency lock file beside the dependency file ({@code package-lock.json}), or null for a
 *     language whose package manager has none ({@code requirements.txt} pins versions itself, when it does)
 */
public record RuntimeFiles(String source, String dependencies, String packageRegistryConfig, String lock) {

  private static final RuntimeFiles NODEJS =
      new RuntimeFiles("handler.js", "package.json", ".npmrc", "package-lock.json");
  private static final RuntimeFiles PYTHON = new RuntimeFiles("handler.py", "requirements.txt", "pip.conf", null);

  public static RuntimeFiles of(FunctionRuntime runtime) {
    return runtime.isNodejs() ? NODEJS : PYTHON;
  }

  /** The files of a Function's source layer, for messages: {@code handler.js, package.json and package-lock.json}. */
  public String describeSourceLayer() {
    return lock == null ? source + " and " + dependencies : source + ", " + dependencies + " and " + lock;
  }

  /** Kyma's rule (§2.5): blank Node.js dependencies become {@code {}}; Python's are kept as they are. */
  public static String normalisedDependencies(FunctionRuntime runtime, String dependencies) {
    if (runtime.isNodejs() && (dependencies == null || dependencies.isBlank())) {
      return "{}";
    }
    return dependencies == null ? "" : dependencies;
  }
}
