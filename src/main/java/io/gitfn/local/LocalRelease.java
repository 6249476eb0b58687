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
 * @param env the Function's {@code spec.env}: its values, and those it reads from the folder's ConfigMaps; a Secret or
 *     a field of a Pod has no cluster to read from here
 */
record LocalRelease(String namespace, String name, FunctionRuntime runtime, ContentKey key, String handler,
    String dependencies, Map<String, String> env) {

  static final String DEFAULT_NAMESPACE = "default";

  LocalRelease {
    env = Map.copyOf(env);
  }

  /**
   * The release of {@code fn}, its env read from {@code configMaps} where it says so.
   *
   * @throws LocalException when its env reads a ConfigMap or key the folder lacks and does not say optional
   */
  static LocalRelease of(Function fn, FunctionBuildPlan plan, FolderConfigMaps configMaps, List<String> warnings)
      throws LocalException {
    RuntimeFiles files = RuntimeFiles.of(fn.getSpec().getRuntime());
    String namespace = fn.getMetadata().getNamespace() == null ? DEFAULT_NAMESPACE : fn.getMetadata().getNamespace();
    Map<String, String> env = new LinkedHashMap<>();
    List<EnvVar> declared = fn.getSpec().getEnv() == null ? List.of() : fn.getSpec().getEnv();
    for (EnvVar var : declared) {
      if (var.getValueFrom() == null) {
        env.put(var.getName(), Objects.requireNonNullElse(var.getValue(), ""));
      } else if (var.getValueFrom().getConfigMapKeyRef() != null) {
        configMaps.value(namespace, var.getName(), var.getValueFrom().getConfigMapKeyRef())
            .ifPresent(value -> env.put(var.getName(), value));
      } else {
        warnings.add("env " + var.getName() + " reads " + (var.getValueFrom().getSecretKeyRef() != null
            ? "a Secret" : "a field of its Pod") + ", which local mode has not; it is left unset");
      }
    }
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
    return (fn.getMetadata().getNamespace() == null ? DEFAULT_NAMESPACE : fn.getMetadata().getNamespace()) + "/"
        + fn.getMetadata().getName();
  }

  /** Whether {@code other} runs exactly what this one runs, so nothing needs to restart. */
  boolean sameAs(LocalRelease other) {
    return other != null && key.equals(other.key) && env.equals(other.env) && runtime == other.runtime;
  }
}
