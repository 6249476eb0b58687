package io.gitfn.local;

import io.gitfn.api.function.FunctionRuntime;

/** The two languages gitfn runs, and what local mode needs to know of each. */
enum Language {
  NODEJS("nodejs", "node"),
  PYTHON("python", "python3");

  /** The folder of the runtime's files under {@code io/gitfn/runtimes/}. */
  final String folder;
  /** The interpreter on PATH. */
  final String interpreter;

  Language(String folder, String interpreter) {
    this.folder = folder;
    this.interpreter = interpreter;
  }

  static Language of(FunctionRuntime runtime) {
    return runtime.isNodejs() ? NODEJS : PYTHON;
  }
}
