package io.gitfn.build;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.KeyToPath;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.SecurityContext;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.gitfn.api.Labels;
import io.gitfn.api.function.Function;
import io.gitfn.api.function.FunctionRuntime;
import io.gitfn.api.function.TestFunction;
import io.gitfn.build.ImageBuilder.Tool;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class BuildJobSpecTest {

  // Build Jobs are buildah's and kaniko's; the default builder, layered, runs none.
  private static final BuildSettings SETTINGS = BuildSettings.defaults().withBuilder(ImageBuilder.of(Tool.BUILDAH));
  private static final Function FN = TestFunction.inline().build();
  private static final ContentKey KEY = ContentKey.ofInline(FN, SETTINGS);
  private static final Job JOB = BuildJobSpec.forFunction(FN, KEY, "orders-build-ctx", SETTINGS);
  private static final String IMAGE = "registry.local:5000/shop/orders:" + KEY.tag();

  private static BuildSettings settings(Tool tool) {
    return SETTINGS.withBuilder(ImageBuilder.of(tool));
  }

  private static Job job(Tool tool) {
    return job(FN, settings(tool));
  }

  private static Job job(Function fn, BuildSettings settings) {
    return BuildJobSpec.forFunction(fn, ContentKey.ofInline(fn, settings), "orders-build-ctx", settings);
  }

  private static PodSpec pod(Job job) {
    return job.getSpec().getTemplate().getSpec();
  }

  private static Container container(Job job) {
    assertThat(pod(job).getContainers()).hasSize(1);
    return pod(job).getContainers().get(0);
  }

  private static Map<String, String> env(Job job) {
    Map<String, String> env = new LinkedHashMap<>();
    for (EnvVar variable : container(job).getEnv()) {
      env.put(variable.getName(), variable.getValue());
    }
    return env;
  }

  private static VolumeMount mount(Job job, String volume) {
    return container(job).getVolumeMounts().stream().filter(m -> m.getName().equals(volume)).findFirst()
        .orElseThrow(() -> new AssertionError("no mount of " + volume));
  }

  @Test
  void eachToolRunsFromItsProjectsImage() {
    assertThat(container(JOB).getImage()).isEqualTo("quay.io/buildah/stable:v1.42.2");
    assertThat(container(job(Tool.KANIKO)).getImage()).isEqualTo("gcr.io/kaniko-project/executor:v1.23.2");
    assertThat(container(job(FN, SETTINGS.withBuilder(ImageBuilder.of(Tool.KANIKO).withImage("mirror.example/k:1"))))
        .getImage()).isEqualTo("mirror.example/k:1");
  }

  @Test
  void theJobIsNamedAfterTheFunctionAndTheKeySoARestartFindsIt() {
    assertThat(JOB.getMetadata().getName()).isEqualTo("orders-build-" + KEY.value().substring(0, 10));
    assertThat(BuildJobSpec.forFunction(FN, KEY, "orders-build-ctx", SETTINGS)).isEqualTo(JOB);
  }

  @Test
  void switchingTheBuilderKeepsTheKeySoNothingIsRebuiltForIt() {
    assertThat(ContentKey.ofInline(FN, settings(Tool.KANIKO))).isEqualTo(ContentKey.ofInline(FN, settings(Tool.BUILDAH)));
  }

  @Test
  void aLongFunctionNameIsShortenedAndHashedToKeepTheJobNameWithin63Characters() {
    Function fn = TestFunction.inline().named("a".repeat(45) + "-" + "b".repeat(17)).build();

    String name = BuildJobSpec.name(fn, KEY);

    assertThat(name).hasSize(63).matches("a{39}-[0-9a-f]{6}-build-" + KEY.value().substring(0, 10));
  }

  @Test
  void twoLongNamesWithACommonPrefixAndTheSameSourceGetDifferentJobs() {
    // Equal sources give equal keys; before the hash both Functions were "aaa…a-build-<key>".
    Function first = TestFunction.inline().named("a".repeat(50) + "-first").build();
    Function second = TestFunction.inline().named("a".repeat(50) + "-second").build();

    assertThat(ContentKey.ofInline(first, SETTINGS)).isEqualTo(ContentKey.ofInline(second, SETTINGS));
    assertThat(BuildJobSpec.name(first, KEY)).isNotEqualTo(BuildJobSpec.name(second, KEY));
  }

  @Test
  void aNameThatFitsIsNotHashed() {
    Function fn = TestFunction.inline().named("a".repeat(46)).build();

    assertThat(BuildJobSpec.name(fn, KEY)).isEqualTo("a".repeat(46) + "-build-" + KEY.value().substring(0, 10));
  }

  @Test
  void theImageIsRegistryNamespaceNameAndKeyTag() {
    assertThat(BuildJobSpec.image(FN, KEY, SETTINGS)).isEqualTo(IMAGE);
  }

  @ParameterizedTest
  @EnumSource(value = Tool.class, names = {"KANIKO", "BUILDAH"})
  void theJobCarriesTheInternalLabelsTheContentKeyAndAnOwnerReference(Tool tool) {
    Job job = job(tool);

    assertThat(job.getMetadata().getLabels())
        .containsEntry(Labels.FUNCTION_NAME, "orders")
        .containsEntry(Labels.MANAGED_BY, "function-controller")
        .containsEntry(Labels.UUID, FN.getMetadata().getUid())
        .containsEntry(Labels.CONTENT_KEY, KEY.tag());
    assertThat(job.getSpec().getTemplate().getMetadata().getLabels()).isEqualTo(job.getMetadata().getLabels());
    assertThat(job.getMetadata().getOwnerReferences()).singleElement().satisfies(owner -> {
      assertThat(owner.getApiVersion()).isEqualTo("serverless.kyma-project.io/v1alpha2");
      assertThat(owner.getName()).isEqualTo("orders");
      assertThat(owner.getController()).isTrue();
    });
  }

  @ParameterizedTest
  @EnumSource(value = Tool.class, names = {"KANIKO", "BUILDAH"})
  void theJobRunsOnceWithoutASidecarOrAServiceAccountToken(Tool tool) {
    Job job = job(tool);

    assertThat(job.getSpec().getBackoffLimit()).isZero();
    assertThat(pod(job).getRestartPolicy()).isEqualTo("Never");
    assertThat(job.getSpec().getTemplate().getMetadata().getAnnotations())
        .containsEntry("sidecar.istio.io/inject", "false");
    assertThat(pod(job).getAutomountServiceAccountToken()).isFalse();
  }

  @ParameterizedTest
  @EnumSource(value = Tool.class, names = {"KANIKO", "BUILDAH"})
  void aFailedBuildsLogIsItsTerminationMessage(Tool tool) {
    assertThat(container(job(tool)).getName()).isEqualTo(BuildJobSpec.CONTAINER);
    assertThat(container(job(tool)).getTerminationMessagePolicy()).isEqualTo("FallbackToLogsOnError");
  }

  @Test
  void kanikoBuildsTheContextAndPushesTheImage() {
    Container kaniko = container(job(Tool.KANIKO));

    assertThat(kaniko.getCommand()).isNullOrEmpty();
    assertThat(kaniko.getArgs()).containsExactly("--skip-unused-stages", "--log-format=text", "--cache=true",
        "--use-new-run", "--compressed-caching=false", "--context=dir:///workspace",
        "--dockerfile=/workspace/Dockerfile", "--destination=" + IMAGE,
        "--build-arg=base_image=" + SETTINGS.baseImage(FunctionRuntime.NODEJS22));
    assertThat(env(job(Tool.KANIKO))).containsExactly(Map.entry("DOCKER_CONFIG", "/kaniko/.docker/"));
  }

  @Test
  void buildahBuildsWithVfsAndChrootThenPushesWhatItTagged() {
    Container buildah = container(JOB);

    assertThat(buildah.getCommand()).containsExactly("/bin/sh", "-c",
        "buildah build \"$@\" && exec buildah push --tls-verify=\"$GITFN_PUSH_TLS_VERIFY\" \"$GITFN_IMAGE\"",
        "buildah");
    assertThat(buildah.getArgs()).containsExactly("--isolation=chroot", "--file=/workspace/Dockerfile",
        "--tag=" + IMAGE, "--build-arg=base_image=" + SETTINGS.baseImage(FunctionRuntime.NODEJS22), "/workspace");
    assertThat(env(JOB)).containsExactly(Map.entry("STORAGE_DRIVER", "vfs"),
        Map.entry("REGISTRY_AUTH_FILE", "/gitfn/registry-credentials/config.json"), Map.entry("GITFN_IMAGE", IMAGE),
        Map.entry("GITFN_PUSH_TLS_VERIFY", "true"));
  }

  @Test
  void buildahsStorageIsAnEmptyDirSoItsCopiesUseTheNodesDisk() {
    assertThat(pod(JOB).getVolumes()).filteredOn(v -> v.getName().equals("buildah-storage")).singleElement()
        .satisfies(v -> assertThat(v.getEmptyDir()).isNotNull());
    assertThat(mount(JOB, "buildah-storage").getMountPath()).isEqualTo("/var/lib/containers");
    assertThat(mount(JOB, "buildah-storage").getReadOnly()).isNotEqualTo(Boolean.TRUE);
    assertThat(pod(job(Tool.KANIKO)).getVolumes()).extracting(Volume::getName).doesNotContain("buildah-storage");
  }

  @Test
  void extraBuilderArgsComeFirst() {
    BuildSettings settings = SETTINGS.withBuilder(new ImageBuilder(Tool.BUILDAH, "b:1", List.of("--format=docker")));

    assertThat(container(job(FN, settings)).getArgs()).startsWith("--format=docker", "--isolation=chroot");
  }

  @ParameterizedTest
  @EnumSource(value = Tool.class, names = {"KANIKO", "BUILDAH"})
  void theBaseImageArgIsTheOverrideWhenThereIsOne(Tool tool) {
    Function fn = TestFunction.inline().runtimeImageOverride("example.com/node:custom").build();

    assertThat(container(job(fn, settings(tool))).getArgs()).contains("--build-arg=base_image=example.com/node:custom");
  }

  @ParameterizedTest
  @EnumSource(value = Tool.class, names = {"KANIKO", "BUILDAH"})
  void noRegistryIsInsecureUnlessListed(Tool tool) {
    Job job = job(tool);

    assertThat(container(job).getArgs()).noneMatch(a -> a.startsWith("--insecure") || a.startsWith("--skip-tls")
        || a.startsWith("--tls-verify"));
    assertThat(env(job)).doesNotContainEntry("GITFN_PUSH_TLS_VERIFY", "false");
  }

  @Test
  void kanikoReachesAListedPushRegistryOverPlainHttpAndOnlyThatOne() {
    BuildSettings settings = settings(Tool.KANIKO).withInsecureRegistries(Set.of("Registry.Local:5000", "other:1"));

    assertThat(container(job(FN, settings)).getArgs()).endsWith("--insecure-registry=registry.local:5000",
        "--skip-tls-verify-registry=registry.local:5000")
        .noneMatch(a -> a.contains("other:1") || a.equals("--insecure") || a.equals("--skip-tls-verify"));
  }

  @Test
  void buildahPushesWithoutTlsVerificationOnlyToAListedRegistry() {
    BuildSettings settings = SETTINGS.withInsecureRegistries(Set.of("registry.local:5000"));

    assertThat(env(job(FN, settings))).containsEntry("GITFN_PUSH_TLS_VERIFY", "false");
    assertThat(container(job(FN, settings)).getArgs()).doesNotContain("--tls-verify=false");
  }

  @Test
  void aListedBaseImageRegistryIsInsecureForThePullOnly() {
    Function fn = TestFunction.inline().runtimeImageOverride("mirror.local:5000/node:22").build();
    Set<String> insecure = Set.of("mirror.local:5000");

    Job buildah = job(fn, SETTINGS.withInsecureRegistries(insecure));
    Job kaniko = job(fn, settings(Tool.KANIKO).withInsecureRegistries(insecure));

    assertThat(container(buildah).getArgs()).contains("--tls-verify=false").endsWith("/workspace");
    assertThat(env(buildah)).containsEntry("GITFN_PUSH_TLS_VERIFY", "true");
    assertThat(container(kaniko).getArgs()).endsWith("--insecure-registry=mirror.local:5000",
        "--skip-tls-verify-registry=mirror.local:5000");
  }

  @Test
  void aBaseImageFromAnArchiveTalksToNoRegistry() {
    Function fn = TestFunction.inline().runtimeImageOverride("oci-archive:/images/nodejs22.tar").build();

    Job job = job(fn, SETTINGS.withInsecureRegistries(Set.of("docker.io")));

    assertThat(container(job).getArgs()).contains("--build-arg=base_image=oci-archive:/images/nodejs22.tar")
        .doesNotContain("--tls-verify=false");
  }

  @ParameterizedTest
  @EnumSource(value = Tool.class, names = {"KANIKO", "BUILDAH"})
  void theContextFilesAreMountedOneByOneAsRealFilesAtTheirItemPaths(Tool tool) {
    Job job = job(tool);

    assertThat(pod(job).getVolumes()).anySatisfy(volume -> {
      assertThat(volume.getName()).isEqualTo("context");
      assertThat(volume.getConfigMap().getName()).isEqualTo("orders-build-ctx");
      assertThat(volume.getConfigMap().getItems()).extracting(KeyToPath::getKey, KeyToPath::getPath)
          .contains(tuple("Dockerfile", "Dockerfile"), tuple("handler.js", "handler.js"),
              tuple("package.json", "package.json"), tuple("runtime.server.mjs", "runtime/server.mjs"),
              tuple("runtime.lib.app.mjs", "runtime/lib/app.mjs"),
              tuple("runtime.package-lock.json", "runtime/package-lock.json"))
          .hasSize(3 + SETTINGS.runtimes().nodejs().files().size());
    });
    assertThat(container(job).getVolumeMounts()).filteredOn(mount -> mount.getName().equals("context"))
        .extracting(VolumeMount::getMountPath, VolumeMount::getSubPath)
        .contains(
            tuple("/workspace/Dockerfile", "Dockerfile"),
            tuple("/workspace/handler.js", "handler.js"),
            tuple("/workspace/package.json", "package.json"),
            tuple("/workspace/runtime/lib/app.mjs", "runtime/lib/app.mjs"))
        .hasSize(3 + SETTINGS.runtimes().nodejs().files().size());
  }

  @Test
  void bothBuildersGetTheSameContextVolumeAndMounts() {
    Job kaniko = job(Tool.KANIKO);

    assertThat(pod(JOB).getVolumes().get(0)).isEqualTo(pod(kaniko).getVolumes().get(0));
    assertThat(container(JOB).getVolumeMounts()).filteredOn(m -> m.getName().equals("context"))
        .isEqualTo(container(kaniko).getVolumeMounts().stream().filter(m -> m.getName().equals("context")).toList());
  }

  @Test
  void everyKeyOfTheContextConfigMapHasAnItemSoNoFileIsLeftOut() throws Exception {
    for (FunctionRuntime runtime : FunctionRuntime.values()) {
      Function fn = TestFunction.inline().runtime(runtime).build();
      ContentKey key = ContentKey.ofInline(fn, SETTINGS);
      Job job = BuildJobSpec.forFunction(fn, key, "ctx", SETTINGS);

      var configMap = ContextConfigMapSpec.forFunction(fn, key, BuildContext.ofInline(fn, SETTINGS));

      assertThat(pod(job).getVolumes().get(0).getConfigMap().getItems()).extracting(KeyToPath::getKey)
          .as(runtime.value()).containsExactlyInAnyOrderElementsOf(configMap.getData().keySet());
    }
  }

  @ParameterizedTest
  @EnumSource(value = Tool.class, names = {"KANIKO", "BUILDAH"})
  void thePushSecretIsMountedAsTheConfigJsonEachToolReads(Tool tool) {
    Job job = job(tool);

    assertThat(pod(job).getVolumes()).filteredOn(volume -> volume.getName().equals("registry-credentials"))
        .singleElement().satisfies(volume -> {
      assertThat(volume.getSecret().getSecretName()).isEqualTo("serverless-registry-config-default");
      assertThat(volume.getSecret().getItems()).singleElement().satisfies(item -> {
        assertThat(item.getKey()).isEqualTo(".dockerconfigjson");
        assertThat(item.getPath()).isEqualTo("config.json");
      });
    });
    VolumeMount credentials = mount(job, "registry-credentials");
    assertThat(credentials.getReadOnly()).isTrue();
    if (tool == Tool.KANIKO) {
      assertThat(credentials.getMountPath() + "/").isEqualTo(env(job).get("DOCKER_CONFIG")); // kaniko: $DOCKER_CONFIG/config.json
    } else {
      assertThat(credentials.getMountPath() + "/config.json").isEqualTo(env(job).get("REGISTRY_AUTH_FILE"));
    }
  }

  @ParameterizedTest
  @EnumSource(value = Tool.class, names = {"KANIKO", "BUILDAH"})
  void withoutAPackageRegistryNothingIsMountedForIt(Tool tool) {
    assertThat(pod(job(tool)).getVolumes()).noneSatisfy(v -> assertThat(v.getName()).isEqualTo("package-registry"));
  }

  @ParameterizedTest
  @EnumSource(value = Tool.class, names = {"KANIKO", "BUILDAH"})
  void thePackageRegistrySecretIsMountedWhereTheDockerfileCopiesItFrom(Tool tool) {
    BuildSettings settings = settings(tool).withPackageRegistrySecret("pypi");
    Function fn = TestFunction.inline().runtime(FunctionRuntime.PYTHON312).code("def main(e, c): pass").build();

    Job job = job(fn, settings);

    assertThat(pod(job).getVolumes()).anySatisfy(volume -> {
      assertThat(volume.getName()).isEqualTo("package-registry");
      assertThat(volume.getSecret().getSecretName()).isEqualTo("pypi");
      assertThat(volume.getSecret().getItems()).singleElement()
          .satisfies(item -> assertThat(item.getKey()).isEqualTo("pip.conf"));
    });
    assertThat(mount(job, "package-registry").getMountPath()).isEqualTo("/workspace/registry-config");
  }

  @ParameterizedTest
  @EnumSource(value = Tool.class, names = {"KANIKO", "BUILDAH"})
  void resourcesComeFromTheBuildProfileOrTheDefault(Tool tool) {
    assertThat(container(job(tool)).getResources().getLimits()).containsEntry("cpu", new Quantity("1100m"));

    Function fast = TestFunction.inline().buildProfile("fast").build();
    Job job = BuildJobSpec.forFunction(fast, KEY, "ctx", settings(tool));

    assertThat(container(job).getResources().getRequests()).containsEntry("cpu", new Quantity("900m"))
        .containsEntry("memory", new Quantity("1100Mi"));
  }

  @Test
  void explicitBuildResourcesWithoutLimitsGetTheDefaultProfilesLimitsOrTheRequest() {
    Function fn = TestFunction.inline().build();
    fn.getSpec().setResourceConfiguration(new io.gitfn.api.function.ResourceConfiguration());
    io.gitfn.api.function.ProfileOrResources build = new io.gitfn.api.function.ProfileOrResources();
    build.setResources(new io.fabric8.kubernetes.api.model.ResourceRequirementsBuilder()
        .addToRequests("cpu", new Quantity("2")).addToRequests("memory", new Quantity("256Mi")).build());
    fn.getSpec().getResourceConfiguration().setBuild(build);

    Job job = BuildJobSpec.forFunction(fn, KEY, "ctx", SETTINGS);

    // A build container never runs without limits: the request where it is higher, else the default profile's.
    assertThat(container(job).getResources().getLimits()).containsEntry("cpu", new Quantity("2"))
        .containsEntry("memory", new Quantity("1100Mi"));
    assertThat(container(job).getResources().getRequests()).containsEntry("cpu", new Quantity("2"));
  }

  @Test
  void kanikoRunsAsRootWithKymasFourCapabilitiesAndRuntimeDefaultSeccomp() {
    SecurityContext security = container(job(Tool.KANIKO)).getSecurityContext();

    assertThat(security.getRunAsUser()).isZero();
    assertThat(security.getRunAsGroup()).isZero();
    assertThat(security.getPrivileged()).isNotEqualTo(Boolean.TRUE);
    assertThat(security.getCapabilities().getDrop()).containsExactly("ALL");
    assertThat(security.getCapabilities().getAdd()).containsExactly("CHOWN", "FOWNER", "SETGID", "DAC_OVERRIDE");
    assertThat(security.getSeccompProfile().getType()).isEqualTo("RuntimeDefault");
  }

  @Test
  void buildahRunsAsRootWithThreeCapabilitiesNoEscalationAndTheNodesSeccompDefault() {
    SecurityContext security = container(JOB).getSecurityContext();

    assertThat(security.getRunAsUser()).isZero();
    assertThat(security.getRunAsGroup()).isZero();
    assertThat(security.getPrivileged()).isNotEqualTo(Boolean.TRUE);
    assertThat(security.getAllowPrivilegeEscalation()).isFalse();
    assertThat(security.getCapabilities().getDrop()).containsExactly("ALL");
    assertThat(security.getCapabilities().getAdd()).containsExactly("SETUID", "SETGID", "SETFCAP");
    // RuntimeDefault refuses unshare(CLONE_NEWUSER), which buildah needs; Unconfined would fail PSA baseline.
    assertThat(security.getSeccompProfile()).isNull();
  }
}
