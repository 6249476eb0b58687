package io.gitfn.reconcile;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.gitfn.api.Annotations;
import io.gitfn.api.function.Function;
import io.gitfn.api.function.FunctionRuntime;
import io.gitfn.api.function.TestFunction;
import io.gitfn.api.repository.FunctionRepository;
import io.gitfn.api.repository.FunctionRepositoryStatus;
import io.gitfn.testbed.git.GitHttpServer;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What the FunctionRepository tests do to and read from a namespace: the Git Secret, a repository of the branch
 * {@code main} and folder {@code functions} checked hourly (so only a request or a webhook brings a commit in), a
 * request to reconcile, and the Functions it applied.
 */
final class Repositories {

  private Repositories() {}

  /** The Secret {@code git} with the HTTP server's credentials. */
  static void gitSecret(KubernetesClient client, String namespace, GitHttpServer http) {
    client.secrets().inNamespace(namespace).resource(new SecretBuilder().withNewMetadata().withName("git").endMetadata()
        .addToStringData("username", http.credentials().username())
        .addToStringData("password", http.credentials().password()).build()).create();
  }

  /** A FunctionRepository of {@code url} with the Secret {@code git} and {@code extraSpec} added to its spec. */
  static void create(KubernetesClient client, String namespace, String name, String url,
      Map<String, Object> extraSpec) {
    StringBuilder extra = new StringBuilder();
    extraSpec.forEach((k, v) -> extra.append(", ").append(k).append(": ").append(json(v)));
    FunctionRepository resource = client.getKubernetesSerialization().unmarshal(
        "---\n{apiVersion: gitfn.io/v1alpha1, kind: FunctionRepository, metadata: {name: " + name + ", namespace: "
            + namespace + "}, spec: {url: '" + url + "', ref: {branch: main}, path: functions, interval: 1h,"
            + " secretRef: {name: git}" + extra + "}}",
        FunctionRepository.class);
    client.resource(resource).create();
  }

  private static String json(Object value) {
    if (value instanceof Map<?, ?> map) {
      StringBuilder out = new StringBuilder("{");
      map.forEach((k, v) -> out.append(out.length() > 1 ? ", " : "").append(k).append(": ").append(json(v)));
      return out.append("}").toString();
    }
    return String.valueOf(value);
  }

  /**
   * Asks for a reconcile, as {@code gitfn reconcile} does, with a merge patch of the annotation alone: the
   * controller's own writes never make it conflict.
   */
  static void requestReconcile(KubernetesClient client, String namespace, String name) {
    client.resources(FunctionRepository.class).inNamespace(namespace).withName(name).patch(
        PatchContext.of(PatchType.JSON_MERGE),
        "{\"metadata\": {\"annotations\": {\"" + Annotations.REQUESTED_AT + "\": \"" + Instant.now() + "\"}}}");
  }

  /** A Function as a repository declares it, whose env VERSION and answer are {@code version}. */
  static TestFunction function(String name, FunctionRuntime runtime, String version) {
    return TestFunction.declared(name).runtime(runtime).code("module.exports = { main: () => \"" + version + "\" };\n")
        .env("VERSION", version);
  }

  static List<String> functionNames(KubernetesClient client, String namespace) {
    return client.resources(Function.class).inNamespace(namespace).list().getItems().stream()
        .map(f -> f.getMetadata().getName()).toList();
  }

  /** The Function's VERSION, or null while it does not exist. */
  static String version(KubernetesClient client, String namespace, String name) {
    Function fn = client.resources(Function.class).inNamespace(namespace).withName(name).get();
    return fn == null ? null : fn.getSpec().getEnv().get(0).getValue();
  }

  /** The repository, with an empty status until the controller has written one. */
  static FunctionRepository repository(KubernetesClient client, String namespace, String name) {
    FunctionRepository repository = client.resources(FunctionRepository.class).inNamespace(namespace).withName(name)
        .get();
    if (repository != null && repository.getStatus() == null) {
      repository.setStatus(new FunctionRepositoryStatus());
    }
    return repository;
  }

  static Optional<Condition> condition(KubernetesClient client, String namespace, String name, String type) {
    FunctionRepository repository = repository(client, namespace, name);
    if (repository == null || repository.getStatus().getConditions() == null) {
      return Optional.empty();
    }
    return repository.getStatus().getConditions().stream().filter(c -> c.getType().equals(type)).findFirst();
  }
}
