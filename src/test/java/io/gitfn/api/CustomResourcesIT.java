package io.gitfn.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.MixedOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceList;
import io.gitfn.api.function.Function;
import io.gitfn.testbed.KubeTestBed;
import io.gitfn.testbed.TestBedBinaries;
import io.gitfn.testbed.TestNamespace;
import io.gitfn.testbed.WithKubeApi;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The committed CRDs on a real kube-apiserver: they install, accept Kyma's Functions as written, and
 * enforce the CEL rules. Documents go to the server as raw YAML, not through gitfn's Java types, so a field
 * the types would drop cannot hide a problem.
 */
@WithKubeApi
class CustomResourcesIT {

  private static final String INVALID = "/io/gitfn/api/invalid/";

  @BeforeAll
  static void installCrds(KubeTestBed bed) {
    bed.installCrds();
  }

  @Test
  void crdsInstallAndBecomeEstablishedAgainAndAgain(KubeTestBed bed) {
    assertThat(bed.installCrds())
        .containsExactly("functionrepositories.gitfn.io", "functions.serverless.kyma-project.io");
  }

  @Test
  void acceptsTheKymaStyleFunctionFromGitopsExamplesAsWritten(KubernetesClient client, TestNamespace ns)
      throws IOException {
    GenericKubernetesResource hello;
    try (InputStream in = Files.newInputStream(TestBedBinaries.projectDir().resolve("gitops-examples/functions/hello.yaml"))) {
      hello = client.getKubernetesSerialization().unmarshal(in, GenericKubernetesResource.class);
    }

    functions(client).inNamespace(ns.name()).resource(hello).create();

    GenericKubernetesResource stored = functions(client).inNamespace(ns.name()).withName("hello").get();
    Map<String, Object> expected = new LinkedHashMap<>(spec(hello));
    expected.put("replicas", 1); // the schema default, and nothing else added or pruned
    assertThat(spec(stored)).isEqualTo(expected);
    Function typed = client.resources(Function.class).inNamespace(ns.name()).withName("hello").get();
    assertThat(typed.getSpec().getSource().getInline().getSource()).contains("Hello from gitfn");
  }

  @Test
  void theScaleSubresourceDrivesSpecReplicas(KubernetesClient client, TestNamespace ns) {
    GenericKubernetesResource fn = function(client, "scaled", "source: {inline: {source: 'module.exports = {}'}}");
    functions(client).inNamespace(ns.name()).resource(fn).create();
    GenericKubernetesResource withStatus = functions(client).inNamespace(ns.name()).withName("scaled").get();
    withStatus.setAdditionalProperty(
        "status", Map.of("replicas", 1, "podSelector", "serverless.kyma-project.io/function-name=scaled"));
    functions(client).inNamespace(ns.name()).resource(withStatus).updateStatus();

    functions(client).inNamespace(ns.name()).withName("scaled").scale(3);

    assertThat(spec(functions(client).inNamespace(ns.name()).withName("scaled").get())).containsEntry("replicas", 3);
  }

  @Test
  void acceptsAFunctionRepositoryAndDefaultsItsSpec(KubernetesClient client, TestNamespace ns) {
    GenericKubernetesResource repository = repository(client, "infra", "ref: {branch: release/2026-11}");

    repositories(client).inNamespace(ns.name()).resource(repository).create();

    assertThat(spec(repositories(client).inNamespace(ns.name()).withName("infra").get()))
        .containsEntry("ref", Map.of("branch", "release/2026-11"))
        .containsEntry("path", ".")
        .containsEntry("interval", "1m")
        .containsEntry("timeout", "60s")
        .containsEntry("prune", true)
        .containsEntry("allowEmpty", false)
        .containsEntry("suspend", false);
  }

  @ParameterizedTest(name = "{0} is rejected with \"{1}\"")
  @MethodSource("invalidFunctions")
  void rejectsAnInvalidFunctionWithTheCelMessage(
      String file, String message, KubernetesClient client, TestNamespace ns) throws IOException {
    GenericKubernetesResource invalid;
    try (InputStream in = CustomResourcesIT.class.getResourceAsStream(INVALID + file)) {
      invalid = client.getKubernetesSerialization().unmarshal(in, GenericKubernetesResource.class);
    }

    assertRejected(() -> functions(client).inNamespace(ns.name()).resource(invalid).create(), message);
    assertThat(functions(client).inNamespace(ns.name()).list().getItems()).isEmpty();
  }

  static Stream<Arguments> invalidFunctions() throws IOException {
    Properties expected = new Properties();
    try (InputStream in = CustomResourcesIT.class.getResourceAsStream(INVALID + "expected-messages.properties")) {
      expected.load(in);
    }
    return expected.stringPropertyNames().stream().sorted().map(f -> Arguments.of(f, expected.getProperty(f)));
  }

  @ParameterizedTest(name = "{0} is rejected with \"{1}\"")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '"',
      value = {
        "ref: {branch: main, tag: v1.0.0}                       | Set exactly one of branch, tag, semver or commit",
        "ref: {commit: abc123}                                  | commit must be a full 40-character lowercase hex SHA",
        "ref: {tag: v1, tagPrefix: orders/}                     | tagPrefix applies only to semver",
        "{ref: {branch: main}, path: ../secrets}                | path must not contain a '..' segment",
        "{ref: {branch: main}, interval: 1s}                    | interval must be at least 10s",
        "{ref: {branch: main}, url: 'https://me:token@git.example.com/x.git'} | url must not carry credentials",
        "{ref: {branch: main}, verify: {mode: Tag, secretRef: {name: keys}}} | verify.mode Tag and TagAndHEAD need ref.tag or ref.semver",
        "{ref: {tag: v1}, verify: {mode: Commit, secretRef: {name: keys}}} | spec.verify.mode",
        "{ref: {branch: main}, verify: {mode: HEAD}}             | spec.verify.secretRef: Required value",
      })
  void rejectsAnInvalidFunctionRepositoryWithTheCelMessage(
      String spec, String message, KubernetesClient client, TestNamespace ns) {
    GenericKubernetesResource invalid = repository(client, "invalid", spec);

    assertRejected(() -> repositories(client).inNamespace(ns.name()).resource(invalid).create(), message);
  }

  private static void assertRejected(Runnable create, String message) {
    assertThatThrownBy(create::run)
        .isInstanceOf(KubernetesClientException.class)
        .satisfies(e -> assertThat(((KubernetesClientException) e).getCode()).isEqualTo(422))
        .hasMessageContaining(message);
  }

  private static GenericKubernetesResource function(KubernetesClient client, String name, String spec) {
    return client.getKubernetesSerialization().unmarshal(
        // "---" first: fabric8 reads text that starts with "{" as JSON, and this is YAML.
        "---\n{apiVersion: serverless.kyma-project.io/v1alpha2, kind: Function, metadata: {name: %s}, spec: {runtime: nodejs22, %s}}"
            .formatted(name, spec),
        GenericKubernetesResource.class);
  }

  // A one-line spec is either a bare `ref: {...}` or a whole `{...}` mapping that may override url.
  private static GenericKubernetesResource repository(KubernetesClient client, String name, String spec) {
    String body = spec.startsWith("{") ? spec.substring(1, spec.length() - 1) : spec;
    String url = body.contains("url:") ? "" : "url: 'https://git.example.com/platform/functions.git', ";
    return client.getKubernetesSerialization().unmarshal(
        "---\n{apiVersion: gitfn.io/v1alpha1, kind: FunctionRepository, metadata: {name: %s}, spec: {%s%s}}"
            .formatted(name, url, body),
        GenericKubernetesResource.class);
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> spec(GenericKubernetesResource resource) {
    return (Map<String, Object>) resource.getAdditionalProperties().get("spec");
  }

  private static MixedOperation<GenericKubernetesResource, GenericKubernetesResourceList, Resource<GenericKubernetesResource>>
      functions(KubernetesClient client) {
    return client.genericKubernetesResources("serverless.kyma-project.io/v1alpha2", "Function");
  }

  private static MixedOperation<GenericKubernetesResource, GenericKubernetesResourceList, Resource<GenericKubernetesResource>>
      repositories(KubernetesClient client) {
    return client.genericKubernetesResources("gitfn.io/v1alpha1", "FunctionRepository");
  }
}
