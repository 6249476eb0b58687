package io.gitfn.reconcile;

import static io.gitfn.api.function.FunctionRuntime.NODEJS22;
import static io.gitfn.reconcile.Repositories.condition;
import static io.gitfn.reconcile.Repositories.create;
import static io.gitfn.reconcile.Repositories.function;
import static io.gitfn.reconcile.Repositories.gitSecret;
import static io.gitfn.reconcile.Repositories.repository;
import static io.gitfn.reconcile.Repositories.requestReconcile;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.gitfn.api.Annotations;
import io.gitfn.api.Labels;
import io.gitfn.api.function.Function;
import io.gitfn.api.repository.AppliedConfigMap;
import io.gitfn.testbed.KubeTestBed;
import io.gitfn.testbed.TestNamespace;
import io.gitfn.testbed.WithKubeApi;
import io.gitfn.testbed.git.BareRepository;
import io.gitfn.testbed.git.GitClient;
import io.gitfn.testbed.git.GitHttpServer;
import io.gitfn.testbed.git.GitServers;
import io.gitfn.testbed.git.WorkingCopy;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * ConfigMaps from the infra repository (issue 31), through the controller, against a real API server and a real Git
 * server: applied with the revision's Functions, owned and pruned like them; a Function that reads one through its
 * env rolls when its data changes, with no build; one in another namespace, or one the repository did not make,
 * refuses the whole revision.
 */
@WithKubeApi
@ExtendWith(GitServers.class)
class ConfigMapsIT {

  private static final Duration WAIT = Duration.ofSeconds(30);
  private static ControllerUnderTest running;

  @BeforeAll
  static void start(KubeTestBed bed) throws Exception {
    running = ControllerUnderTest.start(bed, "configmaps", ControllerSettings.defaults());
  }

  @AfterAll
  static void stop() throws Exception {
    running.close();
  }

  @Test
  void aConfigMapAppliesWithItsFunctionRollsItWhenItChangesAndLeavesWithIt(
      KubernetesClient client, TestNamespace ns, GitHttpServer http, BareRepository repository, GitClient git)
      throws Exception {
    WorkingCopy copy = git.clone(http.url(repository.name()));
    copy.write("functions/hello.yaml", hello("v1"))
        .write("functions/settings.yaml", settings("hello"));
    copy.commit("hello and its settings");
    copy.push();
    gitSecret(client, ns.name(), http);
    create(client, ns.name(), "infra", http.url(repository.name()), Map.of());

    await().atMost(WAIT).untilAsserted(() -> {
      assertThat(greeting(client, ns.name())).isEqualTo("hello");
      assertThat(applied(client, ns.name())).singleElement().satisfies(c -> {
        assertThat(c.getName()).isEqualTo("settings");
        assertThat(c.getFile()).isEqualTo("functions/settings.yaml");
      });
      assertThat(digest(client, ns.name())).startsWith("sha256:");
      assertThat(podTemplateDigest(client, ns.name())).isEqualTo(digest(client, ns.name()));
    });
    assertThat(client.configMaps().inNamespace(ns.name()).withName("settings").get().getMetadata().getLabels())
        .containsEntry(Labels.REPOSITORY, ns.name() + ".infra");
    String before = digest(client, ns.name());
    long generation = helloFunction(client, ns.name()).getMetadata().getGeneration();

    copy.write("functions/settings.yaml", settings("good morning"));
    copy.commit("a new greeting");
    copy.push();
    requestReconcile(client, ns.name(), "infra");
    await().atMost(WAIT).untilAsserted(() -> {
      assertThat(greeting(client, ns.name())).isEqualTo("good morning");
      assertThat(digest(client, ns.name())).isNotEqualTo(before);
      assertThat(podTemplateDigest(client, ns.name())).as("new Pods").isEqualTo(digest(client, ns.name()));
    });
    assertThat(helloFunction(client, ns.name()).getMetadata().getGeneration()).as("the same content key")
        .isEqualTo(generation);
    assertThat(client.batch().v1().jobs().inNamespace(ns.name()).list().getItems()).as("no build Job").isEmpty();

    copy.git("rm", "--quiet", "functions/settings.yaml");
    copy.write("functions/hello.yaml", function("hello", NODEJS22, "v2")
        .metadataAnnotation(Annotations.BUILD_MODE, "buildless").toYaml());
    copy.commit("hello needs no settings any more");
    copy.push();
    requestReconcile(client, ns.name(), "infra");
    await().atMost(WAIT).untilAsserted(() -> {
      assertThat(client.configMaps().inNamespace(ns.name()).withName("settings").get()).isNull();
      assertThat(applied(client, ns.name())).isNull();
      assertThat(digest(client, ns.name())).isNull();
    });
  }

  @Test
  void aConfigMapForAnotherNamespaceOrOneTheRepositoryDidNotMakeRefusesTheRevision(
      KubernetesClient client, TestNamespace ns, GitHttpServer http, BareRepository repository, GitClient git)
      throws Exception {
    client.configMaps().inNamespace(ns.name()).resource(new ConfigMapBuilder().withNewMetadata()
        .withName("settings").endMetadata().withData(Map.of("greeting", "made by hand")).build()).create();
    WorkingCopy copy = git.clone(http.url(repository.name()));
    copy.write("functions/hello.yaml", hello("v1")).write("functions/settings.yaml", settings("hello"));
    String takeover = copy.commit("a ConfigMap someone already made");
    copy.push();
    gitSecret(client, ns.name(), http);
    create(client, ns.name(), "infra", http.url(repository.name()), Map.of());

    assertThat(awaitRefused(client, ns.name(), "ApplyRefused", takeover)).contains("ConfigMap " + ns.name()
        + "/settings exists").contains("does not take it over");
    assertThat(greeting(client, ns.name())).isEqualTo("made by hand");
    assertThat(Repositories.functionNames(client, ns.name())).as("nothing of the revision").isEmpty();

    copy.write("functions/settings.yaml", settings("hello").replace("name: settings",
        "name: settings\n  namespace: kube-system"));
    String elsewhere = copy.commit("a ConfigMap for another tenant's namespace");
    copy.push();
    requestReconcile(client, ns.name(), "infra");
    assertThat(awaitRefused(client, ns.name(), "ApplyRefused", elsewhere)).contains("functions/settings.yaml")
        .contains("kube-system");
    assertThat(client.configMaps().inNamespace("kube-system").withName("settings").get()).isNull();
    assertThat(Repositories.functionNames(client, ns.name())).isEmpty();
  }

  private static String awaitRefused(KubernetesClient client, String namespace, String reason, String commit) {
    await().atMost(WAIT).untilAsserted(() -> assertThat(condition(client, namespace, "infra", "Ready"))
        .hasValueSatisfying(c -> {
          assertThat(c.getStatus()).isEqualTo("False");
          assertThat(c.getReason()).isEqualTo(reason);
          assertThat(c.getMessage()).contains(commit);
        }));
    return condition(client, namespace, "infra", "Ready").orElseThrow().getMessage();
  }

  /** Buildless, so that its Deployment exists on a test bed that runs no build; it reads settings' greeting. */
  private static String hello(String version) {
    return function("hello", NODEJS22, version).envFromConfigMap("GREETING", "settings", "greeting")
        .metadataAnnotation(Annotations.BUILD_MODE, "buildless").toYaml();
  }

  private static String settings(String greeting) {
    return """
        apiVersion: v1
        kind: ConfigMap
        metadata:
          name: settings
        data:
          greeting: "%s"
        """.formatted(greeting);
  }

  private static String greeting(KubernetesClient client, String namespace) {
    ConfigMap configMap = client.configMaps().inNamespace(namespace).withName("settings").get();
    return configMap == null ? null : configMap.getData().get("greeting");
  }

  private static List<AppliedConfigMap> applied(KubernetesClient client, String namespace) {
    return repository(client, namespace, "infra").getStatus().getConfigMaps();
  }

  private static Function helloFunction(KubernetesClient client, String namespace) {
    return client.resources(Function.class).inNamespace(namespace).withName("hello").get();
  }

  private static String digest(KubernetesClient client, String namespace) {
    Function fn = helloFunction(client, namespace);
    return fn == null || fn.getMetadata().getAnnotations() == null ? null
        : fn.getMetadata().getAnnotations().get(Annotations.CONFIG_MAPS_DIGEST);
  }

  private static String podTemplateDigest(KubernetesClient client, String namespace) {
    Deployment deployment = client.apps().deployments().inNamespace(namespace).withName("hello").get();
    return deployment == null || deployment.getSpec().getTemplate().getMetadata().getAnnotations() == null ? null
        : deployment.getSpec().getTemplate().getMetadata().getAnnotations().get(Annotations.CONFIG_MAPS_DIGEST);
  }
}
