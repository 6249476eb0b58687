package io.gitfn.build;

import io.gitfn.api.function.Function;
import io.gitfn.api.function.FunctionRuntime;
import io.gitfn.api.function.InlineSource;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * The files an image is made of: the handler, the dependency file and gitfn's runtime server (under flat
 * {@code runtime.*} keys, see {@link RuntimeSource}), all of which the ConfigMap an install Job or a buildless Pod
 * reads must hold within the API server's limit. Git sources go in too, read by the controller at the exact commit,
 * so no Pod sees Git credentials.
 *
 * @param data ConfigMap key to content
 */
public record BuildContext(Map<String, String> data) {

  /** The API server's limit on a ConfigMap's data, keys and values together. */
  public static final long LIMIT = 1024 * 1024;

  public BuildContext {
    data = Map.copyOf(data);
  }

  /** The context of an inline Function, from its spec. */
  public static BuildContext ofInline(Function fn, BuildSettings settings) throws BuildContextTooLargeException {
    InlineSource inline = fn.getSpec().getSource() == null ? null : fn.getSpec().getSource().getInline();
    if (inline == null) {
      throw new IllegalArgumentException(ContentKey.describe(fn) + " has no inline source");
    }
    return of(fn, inline.getSource(), inline.getDependencies(), settings);
  }

  /**
   * The context of a Function whose handler and dependency file the caller read (from Git, at the commit).
   *
   * @param dependencies the dependency file, or null when there is none
   * @throws BuildContextTooLargeException when the data, runtime included, exceeds {@link #LIMIT}
   */
  public static BuildContext of(Function fn, String source, String dependencies, BuildSettings settings)
      throws BuildContextTooLargeException {
    FunctionRuntime runtime = fn.getSpec().getRuntime();
    RuntimeFiles files = RuntimeFiles.of(runtime);
    Map<String, String> data = new LinkedHashMap<>();
    data.put(files.source(), Objects.requireNonNull(source, "source"));
    data.put(files.dependencies(), RuntimeFiles.normalisedDependencies(runtime, dependencies));
    RuntimeSource server = settings.runtimes().of(runtime);
    server.files().forEach((path, content) -> data.put(RuntimeSource.contextKey(path), content));
    BuildContext context = new BuildContext(data);
    if (context.size() > LIMIT) {
      throw new BuildContextTooLargeException(ContentKey.describe(fn), context.size(), server.size());
    }
    return context;
  }

  /** Bytes of the keys and values in UTF-8, as the API server counts them. */
  public long size() {
    long size = 0;
    for (Map.Entry<String, String> file : data.entrySet()) {
      size += file.getKey().getBytes(StandardCharsets.UTF_8).length;
      size += file.getValue().getBytes(StandardCharsets.UTF_8).length;
    }
    return size;
  }
}
