package io.gitfn.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.gitfn.api.function.Function;
import io.gitfn.api.function.FunctionStatus;
import io.gitfn.api.repository.FunctionRepository;
import io.gitfn.testbed.KubeTestBed;
import io.gitfn.testbed.TestBedBinaries;
import io.gitfn.testbed.TestNamespace;
import io.gitfn.testbed.WithKubeApi;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The committed CRDs on a real kube-apiserver: they install, accept Kyma's Functions, and enforce the CEL rules. */
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
  void acceptsTheKymaStyleFunctionFromGitopsExamples(KubernetesClient client, TestNamespace ns) throws IOException {
    Function hello = read(client, TestBedBinaries.projectDir().resolve("gitops-examples/functions/hello.yaml"));
    hello.getMetadata().setNamespace(ns.name());

    client.resource(hello).create();

    Function stored = client.resources(Function.class).inNamespace(ns.name()).withName("hello").get();
    assertThat(stored.getSpec().getSource().getInline().getSource()).contains("Hello from gitfn");
    assertThat(stored.getSpec().getReplicas()).as("schema default").isEqualTo(1);
  }

  @Test
  void theScaleSubresourceDrivesSpecReplicas(KubernetesClient client, TestNamespace ns) throws IOException {
    Function hello = read(client, TestBedBinaries.projectDir().resolve("gitops-examples/functions/hello.yaml"));
    hello.getMetadata().setNamespace(ns.name());
    client.resource(hello).create();
    FunctionStatus status = new FunctionStatus();
    status.setReplicas(1);
    status.setPodSelector("serverless.kyma-project.io/function-name=hello");
    Function withStatus = client.resources(Function.class).inNamespace(ns.name()).withName("hello").get();
    withStatus.setStatus(status);
    client.resource(withStatus).updateStatus();

    client.resources(Function.class).inNamespace(ns.name()).withName("hello").scale(3);

    Function scaled = client.resources(Function.class).inNamespace(ns.name()).withName("hello").get();
    assertThat(scaled.getSpec().getReplicas()).isEqualTo(3);
  }

  @Test
  void acceptsAFunctionRepository(KubernetesClient client, TestNamespace ns) {
    FunctionRepository repository =
        client.getKubernetesSerialization().unmarshal(
            """
            apiVersion: gitfn.io/v1alpha1
            kind: FunctionRepository
            metadata:
              name: infra
            spec:
              url: https://git.example.com/platform/functions.git
              ref:
                branch: release/2026-11
              path: functions
            """,
            FunctionRepository.class);
    repository.getMetadata().setNamespace(ns.name());

    client.resource(repository).create();

    FunctionRepository stored =
        client.resources(FunctionRepository.class).inNamespace(ns.name()).withName("infra").get();
    assertThat(stored.getSpec().getRef().getBranch()).isEqualTo("release/2026-11");
    assertThat(stored.getSpec().getInterval()).as("schema default").isEqualTo("1m");
    assertThat(stored.getSpec().getPrune()).as("schema default").isTrue();
  }

  @ParameterizedTest(name = "{0} is rejected with \"{1}\"")
  @MethodSource("invalidFunctions")
  void rejectsAnInvalidFunctionWithTheCelMessage(
      String file, String message, KubernetesClient client, TestNamespace ns) throws IOException {
    Function invalid;
    try (InputStream in = CustomResourcesIT.class.getResourceAsStream(INVALID + file)) {
      invalid = client.getKubernetesSerialization().unmarshal(in, Function.class);
    }
    invalid.getMetadata().setNamespace(ns.name());

    assertThatThrownBy(() -> client.resource(invalid).create())
        .isInstanceOf(KubernetesClientException.class)
        .satisfies(e -> assertThat(((KubernetesClientException) e).getCode()).isEqualTo(422))
        .hasMessageContaining(message);
    assertThat(client.resources(Function.class).inNamespace(ns.name()).list().getItems()).isEmpty();
  }

  static Stream<Arguments> invalidFunctions() throws IOException {
    Properties expected = new Properties();
    try (InputStream in = CustomResourcesIT.class.getResourceAsStream(INVALID + "expected-messages.properties")) {
      expected.load(in);
    }
    return expected.stringPropertyNames().stream().sorted().map(f -> Arguments.of(f, expected.getProperty(f)));
  }

  private static Function read(KubernetesClient client, Path file) throws IOException {
    try (InputStream in = Files.newInputStream(file)) {
      return client.getKubernetesSerialization().unmarshal(in, Function.class);
    }
  }
}
