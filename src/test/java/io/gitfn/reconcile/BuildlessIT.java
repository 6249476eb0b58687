package io.gitfn.reconcile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentStatus;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.gitfn.api.Annotations;
import io.gitfn.api.Labels;
import io.gitfn.api.function.BuildMode;
import io.gitfn.api.function.Function;
import io.gitfn.api.function.FunctionHistoryEntry;
import io.gitfn.api.function.FunctionStatus;
import io.gitfn.api.function.TestFunction;
import io.gitfn.build.BuildlessDeployment;
import io.gitfn.build.BuildlessSource;
import io.gitfn.build.ContentKey;
import io.gitfn.request.ControllerRequests;
import io.gitfn.testbed.KubeTestBed;
import io.gitfn.testbed.OciRegistry;
import io.gitfn.testbed.TestNamespace;
import io.gitfn.testbed.WithKubeCluster;
import io.gitfn.workload.DesiredDeployment;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Buildless Functions on a cluster (kwok makes their Pods Ready): a source ConfigMap per content key and a Deployment
 * on the base image, never a build Job; an edit and a revert re-point the Deployment with every replica available;
 * ConfigMaps past the history's length are deleted; the Pods pass the Pod Security {@code restricted} level.
 * The controller runs with {@code --build-mode=buildless}, so an {@code image} annotation is the override here.
 */
@WithKubeCluster
class BuildlessIT {

  private static final Duration WAIT = Duration.ofSeconds(90);
  private static final String V1 = "module.exports = { main: () => 'v1' };";
  private static final String V2 = "module.exports = { main: () => 'v2' };";
  private static final int REPLICAS = 2;
  private static ControllerUnderTest running;
  private static String registry;

  @BeforeAll
  static void startController(KubeTestBed bed) throws Exception {
    registry = bed.layeredBuilds().registry().address();
    running = ControllerUnderTest.start(bed, "buildless", ControllerSettings.defaults(),
        bed.layeredBuilds().settings().withDefaultMode(BuildMode.BUILDLESS));
  }

  @AfterAll
  static void stopController() throws Exception {
    running.close();
  }

  @Test
  void aBuildlessFunctionGetsASourceConfigMapAndADeploymentOnTheBaseImageAndNoJob(KubernetesClient client,
      TestNamespace ns) {
    try (JobLog jobs = JobLog.watch(client, ns)) {
      client.resource(TestFunction.inline().named("hello").inNamespace(ns.name()).uid(null).code(V1).build())
          .create();

      Function fn = awaitRolledOut(client, ns, "hello", null);
      ConfigMap source = single(sources(client, ns, "hello"));
      assertThat(source.getImmutable()).isTrue();
      assertThat(source.getData()).containsEntry("function.handler.js", V1).containsKey(BuildlessSource.INDEX);
      assertThat(source.getMetadata().getOwnerReferences()).singleElement()
          .satisfies(o -> assertThat(o.getUid()).isEqualTo(fn.getMetadata().getUid()));
      Deployment deployment = deployment(client, ns, "hello");
      assertThat(sourceOf(deployment)).isEqualTo(source.getMetadata().getName());
      assertThat(image(deployment)).as("the runtime's base image, as the controller is configured")
          .isEqualTo(registry + "/" + OciRegistry.NODE_BASE);
      assertThat(deployment.getSpec().getTemplate().getSpec().getInitContainers()).extracting(c -> c.getName())
          .containsExactly(BuildlessDeployment.INSTALL);
      assertThat(condition(fn, "BuildReady")).satisfies(c -> {
        assertThat(c.getStatus()).isEqualTo("True");
        assertThat(c.getReason()).isEqualTo("NoBuildNeeded");
        assertThat(c.getMessage()).contains(source.getMetadata().getName());
      });
      assertThat(fn.getStatus().getImage()).isEqualTo(registry + "/" + OciRegistry.NODE_BASE);
      assertThat(fn.getStatus().getHistory()).singleElement().satisfies(e -> {
        assertThat(e.getOutcome()).isEqualTo("Succeeded");
        assertThat(new ContentKey(e.getContentKey()).tag())
            .isEqualTo(source.getMetadata().getLabels().get(Labels.CONTENT_KEY));
      });
      assertThat(jobs.names()).as("no build Job").isEmpty();
      assertThat(client.batch().v1().jobs().inNamespace(ns.name()).list().getItems()).isEmpty();
    }
  }

  @Test
  void anEditRePointsTheDeploymentAndARevertGoesBackToTheOldConfigMapWithEveryReplicaAvailable(
      KubernetesClient client, TestNamespace ns) {
    try (JobLog jobs = JobLog.watch(client, ns)) {
      client.resource(TestFunction.inline().named("rolling").inNamespace(ns.name()).uid(null).code(V1)
          .replicas(REPLICAS).scale(REPLICAS, REPLICAS).build()).create();
      awaitRolledOut(client, ns, "rolling", null);
      String first = sourceOf(deployment(client, ns, "rolling"));
      edit(client, ns, "rolling", V2);
      awaitRolledOut(client, ns, "rolling", first);
      String second = sourceOf(deployment(client, ns, "rolling"));
      assertThat(second).isNotEqualTo(first);
      assertThat(sources(client, ns, "rolling")).extracting(c -> c.getMetadata().getName())
          .containsExactlyInAnyOrder(first, second);

      Deployment before = deployment(client, ns, "rolling");
      List<Observed> seen = new CopyOnWriteArrayList<>();
      List<WatcherException> closed = new CopyOnWriteArrayList<>();
      try (Watch watch = client.apps().deployments().inNamespace(ns.name()).withName("rolling").watch(
          new ListOptionsBuilder().withResourceVersion(before.getMetadata().getResourceVersion()).build(),
          new Watcher<>() {
            @Override
            public void eventReceived(Action action, Deployment deployment) {
              seen.add(Observed.of(deployment));
            }

            @Override
            public void onClose(WatcherException cause) {
              closed.add(cause);
            }
          })) {
        edit(client, ns, "rolling", V1);
        await().atMost(WAIT).untilAsserted(() -> assertThat(seen).last().satisfies(o -> {
          assertThat(o.source()).isEqualTo(first);
          assertThat(o.rolledOut()).isTrue();
        }));
      }

      assertThat(closed).as("the watch ended early").isEmpty();
      assertThat(seen).as("every status from the revert until it is rolled out")
          .allSatisfy(o -> assertThat(o.available()).isGreaterThanOrEqualTo(REPLICAS));
      assertThat(seen).as("the watch saw the rollout in progress").anySatisfy(o -> {
        assertThat(o.source()).isEqualTo(first);
        assertThat(o.updated() < REPLICAS || o.replicas() > REPLICAS).isTrue();
      });
      assertThat(sources(client, ns, "rolling")).as("a revert makes no ConfigMap")
          .extracting(c -> c.getMetadata().getName()).containsExactlyInAnyOrder(first, second);
      assertThat(jobs.names()).as("no build Job, ever").isEmpty();
      Function fn = awaitRolledOut(client, ns, "rolling", second);
      assertThat(fn.getStatus().getHistory()).extracting(FunctionHistoryEntry::getOutcome)
          .containsExactly("Reused", "Succeeded", "Succeeded");
    }
  }

  @Test
  void aPinRePointsTheDeploymentAtThePinnedRevisionsConfigMapUntilUnpinned(KubernetesClient client,
      TestNamespace ns) {
    // As a FunctionRepository's sync would, each version names its revision.
    client.resource(TestFunction.inline().named("pinned").inNamespace(ns.name()).uid(null).code(V1)
        .metadataAnnotation(Annotations.REVISION, "main@sha1:1111111").build()).create();
    awaitRolledOut(client, ns, "pinned", null);
    String first = sourceOf(deployment(client, ns, "pinned"));
    FunctionEdits.edit(client, ns, "pinned", f -> {
      f.getSpec().getSource().getInline().setSource(V2);
      f.getMetadata().getAnnotations().put(Annotations.REVISION, "main@sha1:2222222");
      return f;
    });
    awaitRolledOut(client, ns, "pinned", first);
    String second = sourceOf(deployment(client, ns, "pinned"));

    new ControllerRequests(client, Clock.systemUTC()).pinFunction(ns.name(), "pinned", "main@sha1:1111111");
    awaitRolledOut(client, ns, "pinned", second);
    assertThat(sourceOf(deployment(client, ns, "pinned"))).isEqualTo(first);
    // The status is written at the end of the pass that re-pointed the Deployment.
    await().atMost(WAIT).untilAsserted(() -> assertThat(condition(get(client, ns, "pinned"), "BuildReady"))
        .satisfies(c -> {
          assertThat(c.getReason()).isEqualTo("NoBuildNeeded");
          assertThat(c.getMessage()).contains("pinned to main@sha1:1111111").contains(first);
        }));

    new ControllerRequests(client, Clock.systemUTC()).unpinFunction(ns.name(), "pinned");
    awaitRolledOut(client, ns, "pinned", first);
    assertThat(sourceOf(deployment(client, ns, "pinned"))).isEqualTo(second);
    assertThat(client.batch().v1().jobs().inNamespace(ns.name()).list().getItems()).isEmpty();
  }

  @Test
  void sourceConfigMapsPastTheHistorysLengthAreDeleted(KubernetesClient client, TestNamespace ns) {
    client.resource(TestFunction.inline().named("busy").inNamespace(ns.name()).uid(null).code(version(0)).build())
        .create();
    String oldest = null;
    String previous = null;
    for (int v = 0; v <= FunctionStatus.HISTORY_LIMIT; v++) {
      if (v > 0) {
        edit(client, ns, "busy", version(v));
      }
      awaitRolledOut(client, ns, "busy", previous);
      previous = sourceOf(deployment(client, ns, "busy"));
      oldest = oldest == null ? previous : oldest;
    }

    String first = oldest;
    await().atMost(WAIT).untilAsserted(() -> {
      Function fn = get(client, ns, "busy");
      List<String> kept = fn.getStatus().getHistory().stream()
          .map(e -> new ContentKey(e.getContentKey()).tag()).toList();
      List<ConfigMap> left = sources(client, ns, "busy");
      assertThat(left).extracting(c -> c.getMetadata().getName()).doesNotContain(first);
      assertThat(left).hasSize(FunctionStatus.HISTORY_LIMIT)
          .allSatisfy(c -> assertThat(kept).contains(c.getMetadata().getLabels().get(Labels.CONTENT_KEY)));
    });
  }

  @Test
  void aFunctionDeletedAndMadeAgainWithTheSameSourceOwnsItsConfigMap(KubernetesClient client, TestNamespace ns) {
    client.resource(TestFunction.inline().named("again").inNamespace(ns.name()).uid(null).code(V1).build()).create();
    awaitRolledOut(client, ns, "again", null);
    client.resources(Function.class).inNamespace(ns.name()).withName("again").delete();
    await().atMost(WAIT).until(() -> get(client, ns, "again") == null);

    client.resource(TestFunction.inline().named("again").inNamespace(ns.name()).uid(null).code(V1).build()).create();

    Function fn = awaitRolledOut(client, ns, "again", null);
    // Whether the garbage collector got to the old one first or not, the ConfigMap is the new Function's and stays.
    await().during(Duration.ofSeconds(3)).atMost(WAIT).untilAsserted(() ->
        assertThat(single(sources(client, ns, "again")).getMetadata().getOwnerReferences()).singleElement()
            .satisfies(o -> assertThat(o.getUid()).isEqualTo(fn.getMetadata().getUid())));
    assertThat(sourceOf(deployment(client, ns, "again")))
        .isEqualTo(single(sources(client, ns, "again")).getMetadata().getName());
  }

  @Test
  void anImageAnnotationOverridesTheBuildlessDefault(KubernetesClient client, TestNamespace ns) {
    client.resource(TestFunction.inline().named("built").inNamespace(ns.name()).uid(null).code(V1)
        .metadataAnnotation(Annotations.BUILD_MODE, "image").build()).create();

    Function fn = awaitRolledOut(client, ns, "built", null);
    assertThat(condition(fn, "BuildReady").getReason()).isEqualTo("LayersReused");
    // The install Job's ConfigMap may outlive the rollout by a moment: the Function goes on when the install Pod
    // has packed, and leaves the Job (the last to leave deletes both) once the Job is complete.
    await().atMost(WAIT).untilAsserted(() -> assertThat(sources(client, ns, "built")).isEmpty());
    assertThat(image(deployment(client, ns, "built"))).as("the layered builder's, by digest")
        .startsWith(registry + "/" + ns.name() + "/built:").contains("@sha256:");
  }

  @Test
  void anUnknownBuildModeIsAnInvalidSpecNamingTheAnnotationAndAppliesNothing(KubernetesClient client,
      TestNamespace ns) {
    client.resource(TestFunction.inline().named("typo").inNamespace(ns.name()).uid(null).code(V1)
        .metadataAnnotation(Annotations.BUILD_MODE, "buildles").build()).create();

    await().atMost(WAIT).untilAsserted(() -> {
      Function fn = get(client, ns, "typo");
      assertThat(fn.getStatus()).isNotNull();
      assertThat(condition(fn, "ConfigurationReady")).satisfies(c -> {
        assertThat(c.getStatus()).isEqualTo("False");
        assertThat(c.getReason()).isEqualTo("InvalidFunctionSpec");
        assertThat(c.getMessage()).isEqualTo("metadata.annotations[gitfn.io/build-mode]: `buildles` is not a build"
            + " mode: use one of image, buildless");
      });
    });
    assertThat(deployment(client, ns, "typo")).isNull();
    assertThat(sources(client, ns, "typo")).isEmpty();
    assertThat(client.batch().v1().jobs().inNamespace(ns.name()).list().getItems()).isEmpty();
  }

  @Test
  void itsPodsAreAdmittedWherePodSecurityEnforcesRestricted(KubernetesClient client, TestNamespace ns) {
    client.namespaces().withName(ns.name()).edit(n -> {
      n.getMetadata().getLabels().put("pod-security.kubernetes.io/enforce", "restricted");
      return n;
    });
    client.resource(TestFunction.inline().named("locked").inNamespace(ns.name()).uid(null).code(V1).build())
        .create();

    awaitRolledOut(client, ns, "locked", null);
    Deployment deployment = deployment(client, ns, "locked");
    // The ReplicaSet controller created the Pod through PodSecurity admission, which refuses one that breaks it.
    List<Pod> pods = client.pods().inNamespace(ns.name())
        .withLabels(deployment.getSpec().getSelector().getMatchLabels()).list().getItems();
    assertThat(pods).isNotEmpty().allSatisfy(p ->
        assertThat(p.getSpec().getInitContainers()).extracting(c -> c.getName())
            .containsExactly(BuildlessDeployment.INSTALL));

    // The same template, server-side dry run; and proof that the namespace does refuse what breaks the level.
    PodSpec spec = deployment.getSpec().getTemplate().getSpec();
    client.resource(pod(ns, "dry-run", spec)).dryRun().create();
    PodSpec broken = new PodBuilder().withSpec(spec).build().getSpec();
    broken.getInitContainers().get(0).getSecurityContext().setAllowPrivilegeEscalation(true);
    assertThatThrownBy(() -> client.resource(pod(ns, "dry-run-broken", broken)).dryRun().create())
        .isInstanceOf(KubernetesClientException.class).hasMessageContaining("violates PodSecurity \"restricted");
  }

  private static Pod pod(TestNamespace ns, String name, PodSpec spec) {
    return new PodBuilder().withNewMetadata().withName(name).withNamespace(ns.name()).endMetadata()
        .withSpec(spec).build();
  }

  private static String version(int v) {
    return "module.exports = { main: () => 'v" + v + "' };";
  }

  /** One Deployment as the watch delivered it. */
  record Observed(String source, long generation, long observedGeneration, int replicas, int updated,
      int available) {

    static Observed of(Deployment deployment) {
      DeploymentStatus status = Objects.requireNonNullElseGet(deployment.getStatus(), DeploymentStatus::new);
      return new Observed(sourceOf(deployment), deployment.getMetadata().getGeneration(),
          count(status.getObservedGeneration()), count(status.getReplicas()), count(status.getUpdatedReplicas()),
          count(status.getAvailableReplicas()));
    }

    boolean rolledOut() {
      return observedGeneration >= generation && replicas == REPLICAS && updated == REPLICAS
          && available == REPLICAS;
    }

    private static int count(Number value) {
      return value == null ? 0 : value.intValue();
    }
  }

  private static void edit(KubernetesClient client, TestNamespace ns, String name, String source) {
    FunctionEdits.edit(client, ns, name, f -> {
      f.getSpec().getSource().getInline().setSource(source);
      return f;
    });
  }

  /**
   * Waits until the Function is Ready and its Deployment has rolled out a version whose source ConfigMap (or, built,
   * image) is not {@code previous}; returns the Function.
   */
  private static Function awaitRolledOut(KubernetesClient client, TestNamespace ns, String name, String previous) {
    await().atMost(WAIT).untilAsserted(() -> {
      Function fn = get(client, ns, name);
      assertThat(fn.getStatus()).isNotNull();
      assertThat(fn.getStatus().getObservedGeneration()).isEqualTo(fn.getMetadata().getGeneration());
      for (String type : List.of("ConfigurationReady", "BuildReady", "Running")) {
        assertThat(condition(fn, type).getStatus()).as(type + ": " + condition(fn, type).getMessage())
            .isEqualTo("True");
      }
      Deployment deployment = deployment(client, ns, name);
      String version = Optional.ofNullable(sourceOf(deployment)).orElse(image(deployment));
      assertThat(version).isNotEqualTo(previous);
      DeploymentStatus rollout = deployment.getStatus();
      assertThat(rollout.getObservedGeneration()).as("rolled out").isEqualTo(deployment.getMetadata().getGeneration());
      assertThat(rollout.getUpdatedReplicas()).isEqualTo(rollout.getReplicas()).isEqualTo(rollout.getAvailableReplicas())
          .isEqualTo(deployment.getSpec().getReplicas());
    });
    return get(client, ns, name);
  }

  private static Condition condition(Function fn, String type) {
    return fn.getStatus().getConditions().stream().filter(c -> c.getType().equals(type)).findFirst()
        .orElseThrow(() -> new AssertionError("no " + type + " condition"));
  }

  private static List<ConfigMap> sources(KubernetesClient client, TestNamespace ns, String name) {
    return client.configMaps().inNamespace(ns.name()).withLabels(Map.of(Labels.FUNCTION_NAME, name,
        Labels.RESOURCE, BuildlessSource.RESOURCE)).list().getItems().stream()
        .filter(c -> c.getMetadata().getDeletionTimestamp() == null).toList();
  }

  private static ConfigMap single(List<ConfigMap> maps) {
    assertThat(maps).hasSize(1);
    return maps.get(0);
  }

  private static Function get(KubernetesClient client, TestNamespace ns, String name) {
    return client.resources(Function.class).inNamespace(ns.name()).withName(name).get();
  }

  private static Deployment deployment(KubernetesClient client, TestNamespace ns, String name) {
    return client.apps().deployments().inNamespace(ns.name()).withName(name).get();
  }

  private static String sourceOf(Deployment deployment) {
    return deployment.getSpec().getTemplate().getSpec().getVolumes().stream()
        .filter(v -> v.getName().equals(BuildlessDeployment.SOURCE_VOLUME) && v.getConfigMap() != null)
        .map(v -> v.getConfigMap().getName()).findFirst().orElse(null);
  }

  private static String image(Deployment deployment) {
    return deployment.getSpec().getTemplate().getSpec().getContainers().stream()
        .filter(c -> c.getName().equals(DesiredDeployment.CONTAINER)).findFirst().orElseThrow().getImage();
  }
}
