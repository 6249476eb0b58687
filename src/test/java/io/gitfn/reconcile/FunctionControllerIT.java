package io.gitfn.reconcile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.gitfn.api.function.Function;
import io.gitfn.api.function.ScaleConfig;
import io.gitfn.api.function.TestFunction;
import io.gitfn.testbed.KubeTestBed;
import io.gitfn.testbed.KwokLayeredBuilds;
import io.gitfn.testbed.TestNamespace;
import io.gitfn.testbed.WithKubeCluster;
import io.gitfn.workload.DesiredDeployment;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The Function controller in cluster mode, with the layered builder: the test bed plays install Jobs
 * ({@link KwokLayeredBuilds}), kwok makes Pods Ready, the controller-manager rolls Deployments out and collects the
 * children of a deleted Function.
 */
@WithKubeCluster
class FunctionControllerIT {

  private static final Duration WAIT = Duration.ofSeconds(60);
  private static final String V1 = "module.exports = { main: () => 'v1' };";
  private static final String V2 = "module.exports = { main: () => 'v2' };";
  private static ControllerUnderTest running;

  @BeforeAll
  static void startController(KubeTestBed bed) throws Exception {
    running = ControllerUnderTest.start(bed, "function", ControllerSettings.defaults());
  }

  @AfterAll
  static void stopController() throws Exception {
    running.close();
  }

  @Test
  void anInlineFunctionInstallsOnceAndAHandlerChangeOrARevertStartsNoJob(KubernetesClient client, TestNamespace ns) {
    try (JobLog created = JobLog.watch(client, ns)) {
      client.resource(function(ns, "hello", V1, "one")).create();

      Function first = awaitReady(client, ns, "hello");
      String firstImage = first.getStatus().getImage();
      assertThat(firstImage).as("by digest").matches(".*/" + ns.name() + "/hello:[0-9a-f]+@sha256:[0-9a-f]{64}");
      assertThat(created.names()).as("the namespace's first install: the runtime and no dependencies")
          .singleElement().asString().startsWith("gitfn-");
      assertThat(client.services().inNamespace(ns.name()).withName("hello").get().getSpec().getPorts())
          .singleElement().satisfies(p -> assertThat(p.getPort()).isEqualTo(80));
      assertThat(first.getStatus().getPodSelector()).contains("serverless.kyma-project.io/function-name=hello");
      assertThat(first.getStatus().getHistory()).extracting("outcome").containsExactly("Succeeded");
      assertThat(client.v1().events().inNamespace(ns.name()).list().getItems()).extracting(Event::getReason)
          .contains("SourceUpdated", "JobRunning", "LayersReused", "DeploymentReady");

      FunctionEdits.edit(client, ns, "hello", f -> withEnv(f, "two"));
      await().atMost(WAIT).untilAsserted(() -> {
        assertThat(env(deployment(client, ns))).contains(new EnvVar("VERSION", "two", null));
        assertThat(ready(client, ns, "hello")).isTrue();
      });

      FunctionEdits.edit(client, ns, "hello", f -> withSource(f, V2));
      await().atMost(WAIT).untilAsserted(() -> {
        Function current = get(client, ns, "hello");
        assertThat(current.getStatus().getImage()).isNotEqualTo(firstImage);
        assertThat(image(deployment(client, ns))).isEqualTo(current.getStatus().getImage());
        assertThat(ready(client, ns, "hello")).isTrue();
        // Once it runs, the install Job and its ConfigMap go; the registry keeps the dependency image.
        assertThat(jobs(client, ns)).isEmpty();
        assertThat(client.configMaps().inNamespace(ns.name()).withName(created.names().get(0)).get()).isNull();
      });

      FunctionEdits.edit(client, ns, "hello", f -> withSource(f, V1));
      await().atMost(WAIT).untilAsserted(() -> {
        assertThat(image(deployment(client, ns))).isEqualTo(firstImage);
        assertThat(get(client, ns, "hello").getStatus().getImage()).isEqualTo(firstImage);
        assertThat(ready(client, ns, "hello")).isTrue();
      });
      assertThat(created.uids()).as("no Job for an env change, a handler change or a revert").hasSize(1);
      assertThat(get(client, ns, "hello").getStatus().getHistory()).extracting("outcome")
          .containsExactly("Reused", "Succeeded", "Succeeded");
    }
  }

  @Test
  void aRequestedReconcileInstallsAFailedKeyAgain(KubernetesClient client, TestNamespace ns) {
    try (JobLog created = JobLog.watch(client, ns)) {
      Function fn = function(ns, "retried", V1, "one");
      fn.getSpec().getSource().getInline().setDependencies(KwokLayeredBuilds.MISSING_DEPENDENCIES);
      client.resource(fn).create();
      await().atMost(WAIT).untilAsserted(() -> assertThat(condition(get(client, ns, "retried"), "BuildReady"))
          .satisfies(c -> assertThat(c.getReason()).isEqualTo("JobFailed")));
      assertThat(created.names()).hasSize(1);

      FunctionEdits.edit(client, ns, "retried", f -> {
        f.getMetadata().getAnnotations().put("gitfn.io/requested-at", "2026-11-22T10:00:00Z");
        return f;
      });

      // The same Job name again: the failed one is deleted and made anew, and fails again the same way.
      await().atMost(WAIT).untilAsserted(() -> {
        assertThat(created.uids()).hasSize(2);
        assertThat(condition(get(client, ns, "retried"), "BuildReady").getReason()).isEqualTo("JobFailed");
        assertThat(jobs(client, ns)).singleElement().satisfies(j -> assertThat(
            j.getMetadata().getAnnotations()).containsEntry("gitfn.io/requested-at", "2026-11-22T10:00:00Z"));
      });
      assertThat(created.names()).as("one name").containsOnly(created.names().get(0));
    }
  }

  @Test
  void aFailedInstallLeavesTheRunningVersionServingWithNpmsOwnLine(KubernetesClient client, TestNamespace ns) {
    client.resource(function(ns, "steady", V1, "one")).create();
    String running = awaitReady(client, ns, "steady").getStatus().getImage();

    FunctionEdits.edit(client, ns, "steady", f -> {
      f.getSpec().getSource().getInline().setDependencies(KwokLayeredBuilds.MISSING_DEPENDENCIES);
      return f;
    });

    await().atMost(WAIT).untilAsserted(() -> {
      Function fn = get(client, ns, "steady");
      assertThat(fn.getStatus().getConditions()).filteredOn(c -> c.getType().equals("BuildReady"))
          .singleElement().satisfies(c -> {
            assertThat(c.getStatus()).isEqualTo("False");
            assertThat(c.getReason()).isEqualTo("JobFailed");
            assertThat(c.getMessage()).startsWith("Job gitfn-").contains("which installs the dependencies of")
                .contains("npm error 404 Not Found - GET https://registry.npmjs.org/" + KwokLayeredBuilds.MISSING_PACKAGE)
                .contains("the running version stays");
          });
      assertThat(fn.getStatus().getHistory()).extracting("outcome").containsExactly("Failed", "Succeeded");
    });
    assertThat(image(deployment(client, ns))).isEqualTo(running);
    assertThat(get(client, ns, "steady").getStatus().getImage()).isEqualTo(running);
    assertThat(get(client, ns, "steady").getStatus().getConditions())
        .filteredOn(c -> c.getType().equals("Running")).extracting(Condition::getStatus).containsExactly("True");
  }

  @Test
  void aContextOverTheConfigMapLimitIsAnInvalidSpecAndBuildsNothing(KubernetesClient client, TestNamespace ns) {
    String huge = "// " + "x".repeat(1024 * 1024 + 1);
    client.resource(function(ns, "huge", huge, "one")).create();

    await().atMost(WAIT).untilAsserted(() -> {
      Function fn = get(client, ns, "huge");
      assertThat(fn.getStatus()).isNotNull();
      assertThat(fn.getStatus().getConditions()).filteredOn(c -> c.getType().equals("ConfigurationReady"))
          .singleElement().satisfies(c -> {
            assertThat(c.getStatus()).isEqualTo("False");
            assertThat(c.getReason()).isEqualTo("InvalidFunctionSpec");
            assertThat(c.getMessage()).contains("spec.source.inline.source").contains("at most 1 MiB");
          });
      assertThat(client.v1().events().inNamespace(ns.name()).list().getItems()).anySatisfy(e -> {
        assertThat(e.getType()).isEqualTo("Warning");
        assertThat(e.getReason()).isEqualTo("InvalidFunctionSpec");
      });
    });
    assertThat(jobs(client, ns)).isEmpty();
    assertThat(client.apps().deployments().inNamespace(ns.name()).list().getItems()).isEmpty();
  }

  @Test
  void aSpecThatBreaksKymasRulesNamesEveryBrokenFieldAndBuildsNothing(KubernetesClient client, TestNamespace ns) {
    // The API server's schema lets this through; Kyma's controller, and gitfn's, refuse it (reference §1.7).
    Function fn = function(ns, "reserved", V1, "one");
    fn.getSpec().getSource().getInline().setDependencies("lodash@4");
    client.resource(fn).create();

    await().atMost(WAIT).untilAsserted(() -> assertThat(condition(get(client, ns, "reserved"), "ConfigurationReady"))
        .satisfies(c -> {
          assertThat(c.getStatus()).isEqualTo("False");
          assertThat(c.getReason()).isEqualTo("InvalidFunctionSpec");
          assertThat(c.getMessage()).contains("spec.source.inline.dependencies").contains("package.json object");
        }));
    assertThat(jobs(client, ns)).isEmpty();
  }

  @Test
  void scaleConfigWithRoomToScaleGetsAnHpa(KubernetesClient client, TestNamespace ns) {
    Function fn = function(ns, "scaled", V1, "one");
    ScaleConfig scale = new ScaleConfig();
    scale.setMinReplicas(1);
    scale.setMaxReplicas(3);
    fn.getSpec().setScaleConfig(scale);
    client.resource(fn).create();

    await().atMost(WAIT).untilAsserted(() -> assertThat(client.autoscaling().v2().horizontalPodAutoscalers()
        .inNamespace(ns.name()).withName("scaled").get()).isNotNull());
    awaitReady(client, ns, "scaled");
  }

  @Test
  void deletingAFunctionRemovesItsChildren(KubernetesClient client, TestNamespace ns) {
    client.resource(function(ns, "gone", V1, "one")).create();
    awaitReady(client, ns, "gone");

    client.resources(Function.class).inNamespace(ns.name()).withName("gone").delete();

    await().atMost(WAIT).untilAsserted(() -> {
      assertThat(client.apps().deployments().inNamespace(ns.name()).list().getItems()).isEmpty();
      assertThat(client.services().inNamespace(ns.name()).withName("gone").get()).isNull();
      assertThat(jobs(client, ns)).isEmpty();
      assertThat(client.configMaps().inNamespace(ns.name()).withLabel("gitfn.io/content-key").list().getItems())
          .isEmpty();
    });
  }

  private static Function function(TestNamespace ns, String name, String source, String version) {
    return TestFunction.inline().named(name).inNamespace(ns.name()).uid(null).code(source).env("VERSION", version)
        .build();
  }

  private static Function withEnv(Function fn, String version) {
    fn.getSpec().setEnv(List.of(new EnvVar("VERSION", version, null)));
    return fn;
  }

  private static Function withSource(Function fn, String source) {
    fn.getSpec().getSource().getInline().setSource(source);
    return fn;
  }

  private static Function awaitReady(KubernetesClient client, TestNamespace ns, String name) {
    await().atMost(WAIT).untilAsserted(() -> {
      Function fn = get(client, ns, name);
      assertThat(fn.getStatus()).isNotNull();
      assertThat(fn.getStatus().getConditions()).extracting(Condition::getType, Condition::getStatus)
          .containsExactlyInAnyOrder(tuple("ConfigurationReady", "True"),
              tuple("BuildReady", "True"),
              tuple("Running", "True"));
      assertThat(fn.getStatus().getImage()).isNotBlank();
      assertThat(fn.getStatus().getPodSelector()).isNotBlank();
      assertThat(fn.getStatus().getObservedGeneration()).isEqualTo(fn.getMetadata().getGeneration());
    });
    return get(client, ns, name);
  }

  private static boolean ready(KubernetesClient client, TestNamespace ns, String name) {
    Function fn = get(client, ns, name);
    return fn.getStatus() != null && fn.getStatus().getConditions() != null
        && Objects.equals(fn.getStatus().getObservedGeneration(), fn.getMetadata().getGeneration())
        && fn.getStatus().getConditions().stream().allMatch(c -> c.getStatus().equals("True"))
        && fn.getStatus().getConditions().size() == 3;
  }

  private static Condition condition(Function fn, String type) {
    assertThat(fn.getStatus()).isNotNull();
    return fn.getStatus().getConditions().stream().filter(c -> c.getType().equals(type)).findFirst()
        .orElseThrow(() -> new AssertionError("no condition " + type + " in " + fn.getStatus().getConditions()));
  }

  private static Function get(KubernetesClient client, TestNamespace ns, String name) {
    return client.resources(Function.class).inNamespace(ns.name()).withName(name).get();
  }

  private static List<Job> jobs(KubernetesClient client, TestNamespace ns) {
    return client.batch().v1().jobs().inNamespace(ns.name()).list().getItems();
  }

  private static Deployment deployment(KubernetesClient client, TestNamespace ns) {
    return client.apps().deployments().inNamespace(ns.name()).list().getItems().get(0);
  }

  private static List<EnvVar> env(Deployment deployment) {
    return container(deployment).map(Container::getEnv).orElse(List.of());
  }

  private static String image(Deployment deployment) {
    return container(deployment).map(Container::getImage).orElse(null);
  }

  private static Optional<Container> container(Deployment deployment) {
    return deployment.getSpec().getTemplate().getSpec().getContainers().stream()
        .filter(c -> c.getName().equals(DesiredDeployment.CONTAINER)).findFirst();
  }
}
