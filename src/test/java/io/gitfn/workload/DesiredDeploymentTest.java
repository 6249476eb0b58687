package io.gitfn.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.LocalObjectReference;
import io.fabric8.kubernetes.api.model.PodSecurityContextBuilder;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Probe;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirementsBuilder;
import io.fabric8.kubernetes.api.model.SecurityContextBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.gitfn.api.Annotations;
import io.gitfn.api.function.Function;
import io.gitfn.api.function.FunctionRuntime;
import io.gitfn.api.function.TestFunction;
import io.gitfn.build.BuildSettings;
import io.gitfn.build.ContentKey;
import java.util.Map;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class DesiredDeploymentTest {

  private static final String IMAGE = "registry.local:5000/shop-orders:0123456789abcdef0123456789abcdef";
  private static final WorkloadSettings SETTINGS = WorkloadSettings.defaults();

  private static Deployment deployment(UnaryOperator<TestFunction> change) {
    return DesiredDeployment.forFunction(change.apply(TestFunction.inline()).build(), IMAGE, SETTINGS);
  }

  private static PodSpec pod(Deployment deployment) {
    return deployment.getSpec().getTemplate().getSpec();
  }

  private static Container container(Deployment deployment) {
    return pod(deployment).getContainers().get(0);
  }

  @Test
  void theDeploymentIsNamedAfterTheFunctionAndOwnedByIt() {
    Deployment deployment = deployment(f -> f);

    assertThat(deployment.getMetadata().getName()).isEqualTo("orders");
    assertThat(deployment.getMetadata().getGenerateName()).isNull();
    assertThat(deployment.getMetadata().getNamespace()).isEqualTo("shop");
    assertThat(deployment.getMetadata().getOwnerReferences()).singleElement()
        .satisfies(owner -> assertThat(owner.getKind()).isEqualTo("Function"));
  }

  static Stream<Arguments> replicas() {
    return Stream.of(
        Arguments.of("no replicas, no scaleConfig", (UnaryOperator<TestFunction>) f -> f, 1),
        Arguments.of("spec.replicas", (UnaryOperator<TestFunction>) f -> f.replicas(3), 3),
        Arguments.of("spec.replicas 0 scales to zero", (UnaryOperator<TestFunction>) f -> f.replicas(0), 0),
        Arguments.of("min = max: no HPA, spec.replicas", (UnaryOperator<TestFunction>) f -> f.scale(2, 2).replicas(2), 2),
        Arguments.of("an HPA has written spec.replicas", (UnaryOperator<TestFunction>) f -> f.scale(1, 5).replicas(4), 4),
        Arguments.of("an HPA, no spec.replicas yet: its minimum", (UnaryOperator<TestFunction>) f -> f.scale(2, 5), 2));
  }

  @ParameterizedTest(name = "{0} gives {2}")
  @MethodSource("replicas")
  void replicasFollowTheFunction(String rule, UnaryOperator<TestFunction> change, int replicas) {
    assertThat(deployment(change).getSpec().getReplicas()).isEqualTo(replicas);
  }

  @Test
  void rolloutsNeverTakeAReadyPodAwayFirst() {
    var strategy = deployment(f -> f).getSpec().getStrategy();

    assertThat(strategy.getType()).isEqualTo("RollingUpdate");
    assertThat(strategy.getRollingUpdate().getMaxUnavailable()).isEqualTo(new IntOrString(0));
    assertThat(strategy.getRollingUpdate().getMaxSurge()).isEqualTo(new IntOrString(1));
    assertThat(deployment(f -> f).getSpec().getRevisionHistoryLimit()).isEqualTo(5);
  }

  @Test
  void theSelectorIsTheInternalLabelsAndThePodCarriesItWithTheFunctionsLabelsAndAnnotations() {
    Function fn = TestFunction.inline().label("team", "a").annotation("note", "b").build();
    Deployment deployment = DesiredDeployment.forFunction(fn, IMAGE, SETTINGS);

    assertThat(deployment.getSpec().getSelector().getMatchLabels()).isEqualTo(ChildLabels.selector(fn));
    assertThat(deployment.getSpec().getTemplate().getMetadata().getLabels()).isEqualTo(ChildLabels.ofPod(fn))
        .containsEntry("team", "a");
    assertThat(deployment.getSpec().getTemplate().getMetadata().getAnnotations()).containsExactly(
        java.util.Map.entry("note", "b"));
    assertThat(deployment.getMetadata().getLabels()).isEqualTo(ChildLabels.ofFunction(fn));
  }

  @Test
  void theDigestOfTheSecretsAFunctionReadsIsOnThePodTemplateSoANewDigestRollsItButBuildsNothing() {
    Function before = TestFunction.inline().annotation("note", "b").build();
    Function after = TestFunction.inline().annotation("note", "b").build();
    after.getMetadata().setAnnotations(Map.of(Annotations.SECRETS_DIGEST, "hmac-sha256:1a2b"));

    assertThat(DesiredDeployment.forFunction(after, IMAGE, SETTINGS).getSpec().getTemplate().getMetadata()
        .getAnnotations()).containsEntry("note", "b")
        .containsEntry(Annotations.SECRETS_DIGEST, "hmac-sha256:1a2b");
    assertThat(DesiredDeployment.forFunction(before, IMAGE, SETTINGS).getSpec().getTemplate().getMetadata()
        .getAnnotations()).doesNotContainKey(Annotations.SECRETS_DIGEST);
    BuildSettings builds = BuildSettings.defaults();
    assertThat(ContentKey.ofInline(after, builds))
        .as("the content key, so no build").isEqualTo(ContentKey.ofInline(before, builds));
  }

  @Test
  void theContainerRunsTheImageOnPort8080() {
    Container container = container(deployment(f -> f));

    assertThat(container.getName()).isEqualTo("function");
    assertThat(container.getImage()).isEqualTo(IMAGE);
    assertThat(container.getImagePullPolicy()).isEqualTo("IfNotPresent");
    assertThat(container.getPorts()).singleElement().satisfies(port -> {
      assertThat(port.getContainerPort()).isEqualTo(8080);
      assertThat(port.getName()).isEqualTo("http");
    });
  }

  @Test
  void theKubeletPullsTheImageWithTheSecretTheBuildPushedWith() {
    Function fn = TestFunction.inline().build();

    assertThat(DesiredDeployment.forFunction(fn, IMAGE, SETTINGS).getSpec().getTemplate().getSpec().getImagePullSecrets())
        .extracting(LocalObjectReference::getName).containsExactly("serverless-registry-config-default");
    assertThat(DesiredDeployment.forFunction(fn, IMAGE, SETTINGS.withImagePullSecret("push")).getSpec().getTemplate()
        .getSpec().getImagePullSecrets()).extracting(LocalObjectReference::getName).containsExactly("push");
    assertThat(DesiredDeployment.forFunction(fn, IMAGE, SETTINGS.withImagePullSecret(null)).getSpec().getTemplate()
        .getSpec().getImagePullSecrets()).isEmpty();
  }

  @Test
  void nodeEnvIsUserThenRuntimeThenPlatform() {
    Container container = container(deployment(f -> f.env("GREETING", "hi").env("FUNC_NAME", "mine")));

    assertThat(container.getEnv()).extracting(EnvVar::getName).containsExactly(
        "GREETING", "FUNC_NAME", "FUNC_RUNTIME", "HANDLER_PATH", "FUNC_NAME", "SERVICE_NAMESPACE",
        "PUBLISHER_PROXY_ADDRESS", "FUNC_HANDLER", "MOD_NAME", "FUNC_PORT");
    assertThat(container.getEnv()).extracting(EnvVar::getValue).containsExactly(
        "hi", "mine", "nodejs22", "/gitfn/function/handler.js", "orders", "shop",
        SETTINGS.publisherProxyAddress(), "main", "handler", "8080");
  }

  @Test
  void aTraceCollectorReachesTheFunctionOnlyWhenOneIsSet() {
    String collector = "http://telemetry-otlp-traces.kyma-system.svc.cluster.local:4318/v1/traces";
    Function fn = TestFunction.inline().build();

    assertThat(DesiredDeployment.forFunction(fn, IMAGE, SETTINGS.withTraceCollectorEndpoint(collector)).getSpec()
        .getTemplate().getSpec().getContainers().get(0).getEnv())
        .contains(new EnvVar("TRACE_COLLECTOR_ENDPOINT", collector, null));
    assertThat(container(deployment(f -> f)).getEnv()).extracting(EnvVar::getName)
        .doesNotContain("TRACE_COLLECTOR_ENDPOINT");
  }

  @Test
  void pythonEnvPointsPythonPathAtTheImagesInstalledPackages() {
    Container container = container(deployment(f -> f.runtime(FunctionRuntime.PYTHON312)));

    assertThat(container.getEnv()).extracting(EnvVar::getName).startsWith(
        "FUNC_RUNTIME", "PYTHONPATH", "FUNCTION_PATH", "PYTHONUNBUFFERED", "FUNC_NAME");
    assertThat(container.getEnv()).contains(
        new EnvVar("FUNC_RUNTIME", "python312", null),
        new EnvVar("PYTHONPATH", "/gitfn/function/packages:/gitfn/runtime/packages", null),
        new EnvVar("FUNCTION_PATH", "/gitfn/function", null),
        new EnvVar("PYTHONUNBUFFERED", "TRUE", null));
  }

  @Test
  void probesCheckHealthzWithKymasBudgetsAndAQuickerCadence() {
    Container container = container(deployment(f -> f));

    assertProbe(container.getStartupProbe(), 1, null, 150); // 150 s to start, as Kyma's 5 s x 30
    assertProbe(container.getReadinessProbe(), 2, 2, 1);
    assertProbe(container.getLivenessProbe(), 5, 4, 3);
  }

  private static void assertProbe(Probe probe, int period, Integer timeout, int failureThreshold) {
    assertThat(probe.getHttpGet().getPath()).isEqualTo("/healthz");
    assertThat(probe.getHttpGet().getPort()).isEqualTo(new IntOrString(8080));
    assertThat(probe.getPeriodSeconds()).isEqualTo(period);
    assertThat(probe.getTimeoutSeconds()).isEqualTo(timeout);
    assertThat(probe.getFailureThreshold()).isEqualTo(failureThreshold);
  }

  static Stream<Arguments> resources() {
    return Stream.of(
        Arguments.of("no profile: L", (UnaryOperator<TestFunction>) f -> f, "400m", "512Mi", "800m", "1024Mi"),
        Arguments.of("XS", (UnaryOperator<TestFunction>) f -> f.profile("XS"), "50m", "64Mi", "150m", "256Mi"),
        Arguments.of("S", (UnaryOperator<TestFunction>) f -> f.profile("S"), "100m", "128Mi", "200m", "256Mi"),
        Arguments.of("M", (UnaryOperator<TestFunction>) f -> f.profile("M"), "200m", "256Mi", "400m", "512Mi"),
        Arguments.of("L", (UnaryOperator<TestFunction>) f -> f.profile("L"), "400m", "512Mi", "800m", "1024Mi"),
        Arguments.of("XL", (UnaryOperator<TestFunction>) f -> f.profile("XL"), "800m", "1024Mi", "1600m", "2048Mi"),
        Arguments.of("explicit resources", (UnaryOperator<TestFunction>) f -> f.resources(
            new ResourceRequirementsBuilder()
                .addToRequests("cpu", new Quantity("10m")).addToRequests("memory", new Quantity("16Mi"))
                .addToLimits("cpu", new Quantity("20m")).addToLimits("memory", new Quantity("32Mi")).build()),
            "10m", "16Mi", "20m", "32Mi"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("resources")
  void resourcesComeFromTheProfileOrAreGiven(String profile, UnaryOperator<TestFunction> change, String cpuRequest,
      String memoryRequest, String cpuLimit, String memoryLimit) {
    var resources = container(deployment(change)).getResources();

    assertThat(resources.getRequests()).containsEntry("cpu", new Quantity(cpuRequest))
        .containsEntry("memory", new Quantity(memoryRequest));
    assertThat(resources.getLimits()).containsEntry("cpu", new Quantity(cpuLimit))
        .containsEntry("memory", new Quantity(memoryLimit));
  }

  @Test
  void theOperatorsFiguresForAProfileAreThePods() {
    WorkloadSettings small = SETTINGS.withFunctionResources(FunctionResourcesConfig.parse("""
        function:
          resources:
            defaultPreset: M
            presets:
              M: {requestCpu: 20m, requestMemory: 64Mi, limitCpu: 400m, limitMemory: 512Mi}
        """, "resources.yaml"));

    var resources = container(DesiredDeployment.forFunction(TestFunction.inline().build(), IMAGE, small))
        .getResources();

    assertThat(resources.getRequests()).as("no profile named: the operator's default, M, with its figures")
        .containsEntry("cpu", new Quantity("20m")).containsEntry("memory", new Quantity("64Mi"));
  }

  @Test
  void theFunctionRunsUnprivilegedOnAReadOnlyRoot() {
    Deployment deployment = deployment(f -> f);
    var pod = pod(deployment).getSecurityContext();
    var container = container(deployment).getSecurityContext();

    assertThat(pod.getRunAsUser()).isEqualTo(10001L);
    assertThat(pod.getRunAsGroup()).isEqualTo(10001L);
    assertThat(pod.getRunAsNonRoot()).isTrue();
    assertThat(pod.getSeccompProfile().getType()).isEqualTo("RuntimeDefault");
    assertThat(container.getCapabilities().getDrop()).containsExactly("ALL");
    assertThat(container.getReadOnlyRootFilesystem()).isTrue();
    assertThat(container.getAllowPrivilegeEscalation()).isFalse();
    assertThat(container.getPrivileged()).isFalse();
  }

  // Kyma's Function CR reference shows these contexts in status; written into a spec they are taken field by field.
  @Test
  void theFunctionsOwnSecurityContextsWinFieldByFieldAndGitfnsDefaultsFillTheRest() {
    Deployment deployment = deployment(f -> f
        .podSecurityContext(new PodSecurityContextBuilder().withRunAsUser(1000L).withRunAsGroup(1000L)
            .withFsGroup(1000L).withSupplementalGroups(1000L).build())
        .containerSecurityContext(new SecurityContextBuilder().withReadOnlyRootFilesystem(false).build()));
    var pod = pod(deployment).getSecurityContext();
    var container = container(deployment).getSecurityContext();

    assertThat(pod.getRunAsUser()).isEqualTo(1000L);
    assertThat(pod.getRunAsGroup()).isEqualTo(1000L);
    assertThat(pod.getFsGroup()).isEqualTo(1000L);
    assertThat(pod.getSupplementalGroups()).containsExactly(1000L);
    assertThat(pod.getRunAsNonRoot()).isTrue();
    assertThat(pod.getSeccompProfile().getType()).isEqualTo("RuntimeDefault");
    // The container names no user, so the Pod's 1000 is the one that runs.
    assertThat(container.getRunAsUser()).isNull();
    assertThat(container.getReadOnlyRootFilesystem()).isFalse();
    assertThat(container.getCapabilities().getDrop()).containsExactly("ALL");
    assertThat(container.getAllowPrivilegeEscalation()).isFalse();
  }

  @Test
  void capabilitiesTheFunctionSetsReplaceTheDefaultWhole() {
    Deployment deployment = deployment(f -> f.containerSecurityContext(new SecurityContextBuilder()
        .withNewCapabilities().withDrop("ALL").withAdd("NET_BIND_SERVICE").endCapabilities().build()));

    assertThat(container(deployment).getSecurityContext().getCapabilities().getAdd())
        .containsExactly("NET_BIND_SERVICE");
  }

  @Test
  void tmpIsAWritableEmptyDir() {
    Deployment deployment = deployment(f -> f);

    assertThat(pod(deployment).getVolumes()).anySatisfy(volume -> {
      assertThat(volume.getName()).isEqualTo("tmp");
      assertThat(volume.getEmptyDir()).isNotNull();
    });
    assertThat(container(deployment).getVolumeMounts()).anySatisfy(mount -> {
      assertThat(mount.getName()).isEqualTo("tmp");
      assertThat(mount.getMountPath()).isEqualTo("/tmp");
    });
  }

  @Test
  void secretMountsAreReadOnlySecretVolumes() {
    Deployment deployment = deployment(f -> f.secretMount("db.credentials", "/etc/db"));

    assertThat(pod(deployment).getVolumes()).anySatisfy(volume -> {
      assertThat(volume.getName()).isEqualTo("secret-0");
      assertThat(volume.getSecret().getSecretName()).isEqualTo("db.credentials");
    });
    assertThat(container(deployment).getVolumeMounts()).anySatisfy(mount -> {
      assertThat(mount.getName()).isEqualTo("secret-0");
      assertThat(mount.getMountPath()).isEqualTo("/etc/db");
      assertThat(mount.getReadOnly()).isTrue();
    });
  }

  @Test
  void aStoppingPodKeepsServingWhileEndpointsDrain() {
    Deployment deployment = deployment(f -> f);

    assertThat(container(deployment).getLifecycle().getPreStop().getSleep().getSeconds()).isEqualTo(5L);
    assertThat(pod(deployment).getTerminationGracePeriodSeconds()).isGreaterThan(5L);
  }

  @Test
  void theGracePeriodMustOutlastTheDrain() {
    assertThatThrownBy(() -> new WorkloadSettings("t", "p", "L", null, 30, 30, 5, 50, null, FunctionProfiles.KYMA))
        .hasMessageContaining("must exceed preStopSeconds");
  }
}
