package io.gitfn.build;

import io.gitfn.api.function.FunctionRuntime;
import java.util.Objects;

/**
 * The runtime servers that images are built with: one for Node.js (every nodejs runtime alike, the base image's
 * Node.js is the version) and one for Python.
 */
public record RuntimeSources(RuntimeSource nodejs, RuntimeSource python) {

  public RuntimeSources {
    Objects.requireNonNull(nodejs, "nodejs");
    Objects.requireNonNull(python, "python");
  }

  /** The runtimes in gitfn's jar, the ones local mode runs too. */
  public static RuntimeSources bundled() {
    return BundledRuntimes.SOURCES;
  }

  public RuntimeSource of(FunctionRuntime runtime) {
    return runtime.isNodejs() ? nodejs : python;
  }

  public RuntimeSources with(FunctionRuntime runtime, RuntimeSource source) {
    return runtime.isNodejs() ? new RuntimeSources(source, python) : new RuntimeSources(nodejs, source);
  }
}
