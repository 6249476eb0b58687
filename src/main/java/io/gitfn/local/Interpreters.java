package io.gitfn.local;

import io.gitfn.api.function.FunctionRuntime;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The {@code node} and {@code python3} that local mode runs Functions on, looked up on PATH before anything is
 * installed, so that a missing one is one clear line for each Function that needs it, and not an installer's
 * stack of errors. A found interpreter is remembered; a missing one is looked up again at the next change, so
 * installing it while gitfn runs is enough.
 */
final class Interpreters {

  /** An interpreter on PATH and what it says its version is. */
  record Interpreter(Path executable, String version) {}

  private final String searchPath;
  private final Map<Language, Interpreter> found = new EnumMap<>(Language.class);

  /** @param searchPath PATH, as the environment gives it */
  Interpreters(String searchPath) {
    this.searchPath = searchPath == null ? "" : searchPath;
  }

  static Interpreters fromEnvironment() {
    return new Interpreters(System.getenv("PATH"));
  }

  synchronized Interpreter of(FunctionRuntime runtime) throws LocalException {
    Language language = Language.of(runtime);
    Interpreter known = found.get(language);
    if (known != null) {
      return known;
    }
    Path executable = onPath(language.interpreter);
    if (executable == null) {
      throw new LocalException(language.interpreter + " is not installed or not on PATH; " + runtime.value()
          + " Functions need " + wanted(runtime) + " to run locally");
    }
    Interpreter interpreter = new Interpreter(executable, version(executable));
    found.put(language, interpreter);
    return interpreter;
  }

  /**
   * A note when the interpreter's version differs from the one the runtime names (nodejs22 on node 20, say):
   * local mode runs what PATH has, while the cluster's image has the runtime's own version. Empty when they agree.
   */
  static String versionNote(FunctionRuntime runtime, Interpreter interpreter) {
    if (interpreter.version().startsWith(versionPrefix(runtime))) {
      return "";
    }
    return runtime.value() + " runs here on " + interpreter.executable() + " (" + interpreter.version()
        + "); its image in a cluster has " + wanted(runtime);
  }

  /** What {@code node --version} ({@code v24.1.0}) and {@code python3 --version} ({@code Python 3.12.4}) start with. */
  private static String versionPrefix(FunctionRuntime runtime) {
    return (runtime.isNodejs() ? "v" : "Python ") + runtime.version() + ".";
  }

  private static String wanted(FunctionRuntime runtime) {
    return runtime.displayName();
  }

  private Path onPath(String command) {
    for (String directory : searchPath.split(File.pathSeparator)) {
      if (directory.isEmpty()) {
        continue;
      }
      Path candidate = Path.of(directory, command);
      if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
        return candidate;
      }
    }
    return null;
  }

  private static String version(Path executable) throws LocalException {
    try {
      Process process = new ProcessBuilder(executable.toString(), "--version").redirectErrorStream(true).start();
      process.getOutputStream().close();
      String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
      if (!process.waitFor(10, TimeUnit.SECONDS) || process.exitValue() != 0) {
        process.destroyForcibly();
        throw new LocalException(executable + " --version failed: " + Commands.tail(output, 5));
      }
      return output.lines().findFirst().orElse("");
    } catch (IOException e) {
      throw new LocalException("cannot run " + executable + ": " + e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new LocalException(executable + " --version was interrupted");
    }
  }
}
