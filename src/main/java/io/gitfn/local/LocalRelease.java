package io.gitfn.local;

import io.fabric8.kubernetes.api.model.EnvVar;
import io.gitfn.api.function.Function;
import io.gitfn.api.function.FunctionRuntime;
import io.gitfn.build.ContentKey;
import io.gitfn.build.FunctionBuildPlan;
import io.gitfn.build.RuntimeFiles;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One version of a Function as local mode runs it: the content key and files of its build, and its env.
 * Two releases with the same key share a build folder; a new env alone starts a new process from the same build.
 *
 * @param namespace the Function's namespace, {@code default} when it names none
 * @param env the Function's own {@code spec.env} values; {@code valueFrom} has no cluster to read from
 */
record LocalRelease(String namespace, String name, FunctionRuntime runtime, ContentKey key, String handler,
    String dependencies, Map<String, String> env) {

  LocalRelease {
    env = Map.copyOf(env);
  }

  static LocalRelease of(Function fn, FunctionBuildPlan plan, List<String> warnings) {
    RuntimeFiles files = RuntimeFiles.of(fn.getSpec().getRuntime());
    Map<String, String> env = new LinkedHashMap<>();
    List<EnvVar> declared = fn.getSpec().getEnv() == null ? List.of() : fn.getSpec().getEnv();
    for (EnvVar var : declared) {
      if (var.getValueFrom() != null) {
        warnings.add("env " + var.getName() + " reads a " + (var.getValueFrom().getSecretKeyRef() != null ? "Secret"
            : "ConfigMap") + ", which local mode has not; it is left unset");
      } else {
        env.put(var.getName(), Objects.requireNonNullElse(var.getValue(), ""));
      }
    }
    String namespace = fn.getMetadata().getNamespace() == null ? "default" : fn.getMetadata().getNamespace();
    Map<String, String> context = plan.context().data();
    return new LocalRelease(namespace, fn.getMetadata().getName(), fn.getSpec().getRuntime(), plan.key(),
        context.get(files.source()), context.getOrDefault(files.dependencies(), ""), env);
  }

  /** {@code namespace/name}. */
  String id() {
    return namespace + "/" + name;
  }

  /** The id of {@code fn}'s releases: {@code namespace/name}, in {@code default} when it names no namespace. */
  static String idOf(Function fn) {
    return (fn.getMetadata().getNamespace() == null ? "default" : fn.getMetadata().getNamespace()) + "/"
        + fn.getMetadata().getName();
  }

  /** Whether {@code other} runs exactly what this one runs, so nothing needs to restart. */
  boolean sameAs(LocalRelease other) {
    return other != null && key.equals(other.key) && env.equals(other.env) && runtime == other.runtime;
  }
}
