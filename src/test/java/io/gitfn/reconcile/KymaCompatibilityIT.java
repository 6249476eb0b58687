package io.gitfn.reconcile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.gitfn.api.function.Function;
import io.gitfn.manifest.Manifest;
import io.gitfn.manifest.ManifestNotice;
import io.gitfn.manifest.ManifestOptions;
import io.gitfn.manifest.ManifestReader;
import io.gitfn.source.FolderTree;
import io.gitfn.testbed.KubeTestBed;
import io.gitfn.testbed.NodeImages;
import io.gitfn.testbed.OciRegistry;
import io.gitfn.testbed.TestBedBinaries;
import io.gitfn.testbed.TestNamespace;
import io.gitfn.testbed.WithKubeCluster;
import io.gitfn.testbed.git.BareRepository;
import io.gitfn.testbed.git.GitClient;
import io.gitfn.testbed.git.GitHttpServer;
import io.gitfn.testbed.git.GitServers;
import io.gitfn.testbed.git.WorkingCopy;
import io.gitfn.workload.DesiredDeployment;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Functions in every shape Kyma's current docs show (src/test/resources/io/gitfn/kyma/current, written by us after
 * Kyma's pages) apply unchanged: the API server accepts each as raw YAML with gitfn's CRD, {@code gitfn render}
 * reads it, and the controller brings it to Ready on the kwok cluster.
 */
@WithKubeCluster
@ExtendWith(GitServers.class)
class KymaCompatibilityIT {

  private static final Path SHAPES = TestBedBinaries.projectDir().resolve("src/test/resources/io/gitfn/kyma/current");
  private static final Duration WAIT = Duration.ofSeconds(90);
  /** The registry host the override tutorial names; the test bed's registry stands in for it. */
  private static final String OVERRIDE_REGISTRY = "registry.example.com";
  private static ControllerUnderTest running;
  private static OciRegistry registry;

  @BeforeAll
  static void startController(KubeTestBed bed) throws Exception {
    running = ControllerUnderTest.start(bed, "kyma-compat",
        ControllerSettings.defaults().withFunctionSourceInterval(Duration.ofSeconds(1)));
    registry = bed.layeredBuilds().registry();
  }

  @AfterAll
  static void stopController() throws Exception {
    running.close();
  }

  static Stream<String> shapes() throws IOException {
    try (Stream<Path> files = Files.list(SHAPES)) {
      return files.map(f -> f.getFileName().toString()).filter(n -> n.endsWith(".yaml")).sorted().toList().stream();
    }
  }

  @Test
  void everyPageOfKymasDocsThatShowsAFunctionHasAShapeHere() throws IOException {
    assertThat(shapes()).hasSize(14);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("shapes")
  void appliesUnchangedRendersAndBecomesReady(String file, KubernetesClient client, TestNamespace ns,
      GitHttpServer http, BareRepository repository, GitClient git) throws Exception {
    String yaml = Files.readString(SHAPES.resolve(file));
    if (yaml.contains("${GIT_URL}")) {
      WorkingCopy copy = git.clone(http.url(repository.name()));
      copy.write("examples/redis-rest/src/handler.js", "module.exports = { main: () => 'from git' };\n")
          .write("examples/redis-rest/src/package.json", "{\"name\": \"redis-rest\"}\n")
          .commit("the tutorial's folder");
      copy.push();
      yaml = yaml.replace("${GIT_URL}", http.url(repository.name()));
      client.secrets().inNamespace(ns.name()).resource(new SecretBuilder().withNewMetadata()
          .withName("git-credentials").endMetadata()
          .withStringData(Map.of("username", http.credentials().username(), "password", http.credentials().password()))
          .build()).create();
    }
    if (yaml.contains("runtimeImageOverride: " + OVERRIDE_REGISTRY + "/")) {
      // The layered builder reads the base image's manifest, so it must exist: the same repository and tag in the
      // test bed's registry (what is in it does not matter where kwok runs the Pods).
      String override = yaml.lines().filter(l -> l.contains("runtimeImageOverride: ")).findFirst().orElseThrow()
          .strip().substring("runtimeImageOverride: ".length() + OVERRIDE_REGISTRY.length() + 1);
      registry.push(NodeImages.build().archive("nodejs22"), override);
      yaml = yaml.replace("runtimeImageOverride: " + OVERRIDE_REGISTRY + "/",
          "runtimeImageOverride: " + registry.address() + "/");
    }
    createWhatTheShapesReferTo(client, ns);

    // The API server takes the document as written: no field pruned, no rule broken.
    GenericKubernetesResource raw = client.getKubernetesSerialization().unmarshal(yaml, GenericKubernetesResource.class);
    client.genericKubernetesResources(Function.GROUP + "/" + Function.VERSION, "Function")
        .inNamespace(ns.name()).resource(raw).create();
    String name = raw.getMetadata().getName();

    // gitfn render reads it from a folder, as it would from a repository.
    Manifest manifest = render(file, yaml);
    assertThat(manifest.functions()).extracting(f -> f.getMetadata().getName()).containsExactly(name);

    Function ready = awaitReady(client, ns, name);
    String runtime = ready.getSpec().getRuntime().value();
    String configured = condition(ready, "ConfigurationReady").getMessage();
    if (runtime.equals("nodejs20")) {
      assertThat(manifest.notices()).extracting(ManifestNotice::toString).singleElement().asString()
          .contains("spec.runtime: nodejs20 is deprecated by Kyma");
      assertThat(configured).startsWith(
          "Warning: function configured, runtime nodejs20 is deprecated and will be removed in the future; ");
    } else {
      assertThat(manifest.notices()).isEmpty();
      assertThat(configured).doesNotContain("deprecated");
    }
    PodSpec pod = deployment(client, ns, name).getSpec().getTemplate().getSpec();
    assertThat(ready.getStatus().getPodSecurityContext()).isEqualTo(pod.getSecurityContext());
    assertThat(ready.getStatus().getContainerSecurityContext()).isEqualTo(pod.getContainers().stream()
        .filter(c -> c.getName().equals(DesiredDeployment.CONTAINER)).findFirst().orElseThrow().getSecurityContext());
    assertThat(ready.getStatus().getRuntimeImage()).isNotBlank();
    if (ready.getSpec().getSource().getGitRepository() != null) {
      assertThat(ready.getStatus().getGitRepository()).satisfies(gitStatus -> {
        assertThat(gitStatus.getUrl()).isEqualTo(http.url(repository.name()));
        assertThat(gitStatus.getBaseDir()).isEqualTo("examples/redis-rest/src");
        assertThat(gitStatus.getReference()).isEqualTo("main");
        assertThat(gitStatus.getCommit()).hasSize(40);
      });
    } else {
      assertThat(ready.getStatus().getGitRepository()).isNull();
    }
  }

  @Test
  void theCrReferencesSecurityContextsRunAsWritten(KubernetesClient client, TestNamespace ns) throws Exception {
    createWhatTheShapesReferTo(client, ns);
    client.genericKubernetesResources(Function.GROUP + "/" + Function.VERSION, "Function").inNamespace(ns.name())
        .resource(client.getKubernetesSerialization().unmarshal(
            Files.readString(SHAPES.resolve("function-cr-reference.yaml")), GenericKubernetesResource.class))
        .create();

    Function ready = awaitReady(client, ns, "my-test-function");

    PodSpec pod = deployment(client, ns, "my-test-function").getSpec().getTemplate().getSpec();
    assertThat(pod.getSecurityContext().getRunAsUser()).isEqualTo(1000L);
    assertThat(pod.getSecurityContext().getFsGroup()).isEqualTo(1000L);
    assertThat(pod.getSecurityContext().getSupplementalGroups()).containsExactly(1000L);
    assertThat(pod.getContainers().get(0).getSecurityContext().getRunAsUser()).isNull();
    assertThat(ready.getStatus().getPodSecurityContext().getRunAsUser()).isEqualTo(1000L);
  }

  @Test
  void aFunctionAtZeroReplicasIsReadyWithNoPodAndSaysSo(KubernetesClient client, TestNamespace ns) throws Exception {
    client.genericKubernetesResources(Function.GROUP + "/" + Function.VERSION, "Function").inNamespace(ns.name())
        .resource(client.getKubernetesSerialization().unmarshal(
            Files.readString(SHAPES.resolve("idle-at-zero-replicas.yaml")), GenericKubernetesResource.class))
        .create();

    Function ready = awaitReady(client, ns, "idle-function");

    assertThat(deployment(client, ns, "idle-function").getSpec().getReplicas()).isZero();
    assertThat(condition(ready, "Running").getMessage())
        .isEqualTo("Deployment idle-function is scaled to 0: spec.replicas is 0, so no Pod runs until it is raised");
  }

  private static void createWhatTheShapesReferTo(KubernetesClient client, TestNamespace ns) {
    for (String configMap : List.of("my-vars-cm", "my-config")) {
      client.configMaps().inNamespace(ns.name()).resource(new ConfigMapBuilder().withNewMetadata()
          .withName(configMap).endMetadata().withData(Map.of("my-var", "x", "config-env", "y")).build()).create();
    }
    for (String secret : List.of("my-secret", "person-secret")) {
      client.secrets().inNamespace(ns.name()).resource(new SecretBuilder().withNewMetadata().withName(secret)
          .endMetadata().withStringData(Map.of("secret-env", "z", "token", "t")).build()).create();
    }
  }

  private static Manifest render(String file, String yaml) throws Exception {
    Path folder = Files.createTempDirectory("gitfn-kyma-shape");
    Files.writeString(folder.resolve(file), yaml);
    return new ManifestReader(ManifestOptions.defaults()).read(new FolderTree(folder), "", List.of());
  }

  private static Function awaitReady(KubernetesClient client, TestNamespace ns, String name) {
    await().atMost(WAIT).untilAsserted(() -> {
      Function fn = client.resources(Function.class).inNamespace(ns.name()).withName(name).get();
      assertThat(fn.getStatus()).isNotNull();
      assertThat(fn.getStatus().getConditions()).extracting(Condition::getType, Condition::getStatus)
          .containsExactlyInAnyOrder(tuple("ConfigurationReady", "True"), tuple("BuildReady", "True"),
              tuple("Running", "True"));
      assertThat(fn.getStatus().getObservedGeneration()).isEqualTo(fn.getMetadata().getGeneration());
    });
    return client.resources(Function.class).inNamespace(ns.name()).withName(name).get();
  }

  private static Deployment deployment(KubernetesClient client, TestNamespace ns, String name) {
    return client.apps().deployments().inNamespace(ns.name()).withName(name).get();
  }

  private static Condition condition(Function fn, String type) {
    return fn.getStatus().getConditions().stream().filter(c -> c.getType().equals(type)).findFirst().orElseThrow();
  }
}
