package io.gitfn.build;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.KeyToPath;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.gitfn.api.Labels;
import io.gitfn.api.function.Function;
import io.gitfn.api.function.FunctionRuntime;
import io.gitfn.api.function.TestFunction;
import org.junit.jupiter.api.Test;

class BuildJobSpecTest {

  private static final BuildSettings SETTINGS = BuildSettings.defaults();
  private static final Function FN = TestFunction.inline().build();
  private static final ContentKey KEY = ContentKey.ofInline(FN, SETTINGS);
  private static final Job JOB = BuildJobSpec.forFunction(FN, KEY, "orders-build-ctx", SETTINGS);

  private static PodSpec pod(Job job) {
    return job.getSpec().getTemplate().getSpec();
  }

  private static Container executor(Job job) {
    return pod(job).getContainers().get(0);
  }

  @Test
  void theJobIsNamedAfterTheFunctionAndTheKeySoARestartFindsIt() {
    assertThat(JOB.getMetadata().getName()).isEqualTo("orders-build-" + KEY.value().substring(0, 10));
    assertThat(BuildJobSpec.forFunction(FN, KEY, "orders-build-ctx", SETTINGS)).isEqualTo(JOB);
  }

  @Test
  void aLongFunctionNameIsShortenedToKeepTheJobNameWithin63Characters() {
    Function fn = TestFunction.inline().named("a".repeat(45) + "-" + "b".repeat(17)).build();

    String name = BuildJobSpec.name(fn, KEY);

    assertThat(name).hasSizeLessThanOrEqualTo(63).startsWith("a".repeat(45) + "-build-")
        .endsWith(KEY.value().substring(0, 10));
  }

  @Test
  void theImageIsRegistryNamespaceNameAndKeyTag() {
    assertThat(BuildJobSpec.image(FN, KEY, SETTINGS)).isEqualTo("registry.local:5000/shop-orders:" + KEY.tag());
  }

  @Test
  void theJobCarriesTheInternalLabelsTheContentKeyAndAnOwnerReference() {
    assertThat(JOB.getMetadata().getLabels())
        .containsEntry(Labels.FUNCTION_NAME, "orders")
        .containsEntry(Labels.MANAGED_BY, "function-controller")
        .containsEntry(Labels.UUID, FN.getMetadata().getUid())
        .containsEntry(Labels.CONTENT_KEY, KEY.tag());
    assertThat(JOB.getSpec().getTemplate().getMetadata().getLabels()).isEqualTo(JOB.getMetadata().getLabels());
    assertThat(JOB.getMetadata().getOwnerReferences()).singleElement().satisfies(owner -> {
      assertThat(owner.getApiVersion()).isEqualTo("serverless.kyma-project.io/v1alpha2");
      assertThat(owner.getName()).isEqualTo("orders");
      assertThat(owner.getController()).isTrue();
    });
  }

  @Test
  void theJobRunsOnceWithoutASidecar() {
    assertThat(JOB.getSpec().getBackoffLimit()).isZero();
    assertThat(pod(JOB).getRestartPolicy()).isEqualTo("Never");
    assertThat(JOB.getSpec().getTemplate().getMetadata().getAnnotations())
        .containsEntry("sidecar.istio.io/inject", "false");
  }

  @Test
  void theBuildPodGetsNoServiceAccountToken() {
    assertThat(pod(JOB).getAutomountServiceAccountToken()).isFalse();
  }

  @Test
  void kanikoBuildsTheContextAndPushesTheImage() {
    Container executor = executor(JOB);

    assertThat(executor.getImage()).isEqualTo("gcr.io/kaniko-project/executor:v1.23.2");
    assertThat(executor.getArgs())
        .startsWith(BuildSettings.DEFAULT_BUILDER_ARGS.toArray(String[]::new))
        .endsWith("--context=dir:///workspace", "--dockerfile=/workspace/Dockerfile",
            "--destination=registry.local:5000/shop-orders:" + KEY.tag(),
            "--build-arg=base_image=" + SETTINGS.baseImage(FunctionRuntime.NODEJS22));
  }

  @Test
  void theBaseImageArgIsTheOverrideWhenThereIsOne() {
    Function fn = TestFunction.inline().runtimeImageOverride("example.com/node:custom").build();

    Job job = BuildJobSpec.forFunction(fn, ContentKey.ofInline(fn, SETTINGS), "ctx", SETTINGS);

    assertThat(executor(job).getArgs()).contains("--build-arg=base_image=example.com/node:custom");
  }

  @Test
  void theContextFilesAreMountedOneByOneAsRealFilesAtTheirItemPaths() {
    assertThat(pod(JOB).getVolumes()).anySatisfy(volume -> {
      assertThat(volume.getName()).isEqualTo("context");
      assertThat(volume.getConfigMap().getName()).isEqualTo("orders-build-ctx");
      assertThat(volume.getConfigMap().getItems()).extracting(KeyToPath::getKey, KeyToPath::getPath)
          .contains(tuple("Dockerfile", "Dockerfile"), tuple("handler.js", "handler.js"),
              tuple("package.json", "package.json"), tuple("runtime.server.mjs", "runtime/server.mjs"),
              tuple("runtime.lib.app.mjs", "runtime/lib/app.mjs"),
              tuple("runtime.package-lock.json", "runtime/package-lock.json"))
          .hasSize(3 + SETTINGS.runtimes().nodejs().files().size());
    });
    assertThat(executor(JOB).getVolumeMounts()).filteredOn(mount -> mount.getName().equals("context"))
        .extracting(VolumeMount::getMountPath, VolumeMount::getSubPath)
        .contains(
            tuple("/workspace/Dockerfile", "Dockerfile"),
            tuple("/workspace/handler.js", "handler.js"),
            tuple("/workspace/package.json", "package.json"),
            tuple("/workspace/runtime/lib/app.mjs", "runtime/lib/app.mjs"))
        .hasSize(3 + SETTINGS.runtimes().nodejs().files().size());
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

  @Test
  void theRegistryCredentialsAreKanikosDockerConfig() {
    assertThat(pod(JOB).getVolumes()).filteredOn(volume -> volume.getName().equals("registry-credentials"))
        .singleElement().satisfies(volume -> {
      assertThat(volume.getSecret().getSecretName()).isEqualTo("serverless-registry-config-default");
      assertThat(volume.getSecret().getItems()).singleElement().satisfies(item -> {
        assertThat(item.getKey()).isEqualTo(".dockerconfigjson");
        assertThat(item.getPath()).isEqualTo("config.json");
      });
    });
    assertThat(executor(JOB).getVolumeMounts()).anySatisfy(mount -> {
      assertThat(mount.getName()).isEqualTo("registry-credentials");
      assertThat(mount.getMountPath()).isEqualTo("/kaniko/.docker");
    });
  }

  @Test
  void withoutAPackageRegistryNothingIsMountedForIt() {
    assertThat(pod(JOB).getVolumes()).noneSatisfy(v -> assertThat(v.getName()).isEqualTo("package-registry"));
  }

  @Test
  void thePackageRegistrySecretIsMountedWhereTheDockerfileCopiesItFrom() {
    BuildSettings settings = SETTINGS.withPackageRegistrySecret("pypi");
    Function fn = TestFunction.inline().runtime(FunctionRuntime.PYTHON312).code("def main(e, c): pass").build();

    Job job = BuildJobSpec.forFunction(fn, ContentKey.ofInline(fn, settings), "ctx", settings);

    assertThat(pod(job).getVolumes()).anySatisfy(volume -> {
      assertThat(volume.getName()).isEqualTo("package-registry");
      assertThat(volume.getSecret().getSecretName()).isEqualTo("pypi");
      assertThat(volume.getSecret().getItems()).singleElement()
          .satisfies(item -> assertThat(item.getKey()).isEqualTo("pip.conf"));
    });
    assertThat(executor(job).getVolumeMounts()).anySatisfy(mount -> {
      assertThat(mount.getName()).isEqualTo("package-registry");
      assertThat(mount.getMountPath()).isEqualTo("/workspace/registry-config");
    });
  }

  @Test
  void resourcesComeFromTheBuildProfileOrTheDefault() {
    assertThat(executor(JOB).getResources().getLimits()).containsEntry("cpu", new Quantity("1100m"));

    Function fast = TestFunction.inline().buildProfile("fast").build();
    Job job = BuildJobSpec.forFunction(fast, KEY, "ctx", SETTINGS);

    assertThat(executor(job).getResources().getRequests()).containsEntry("cpu", new Quantity("900m"))
        .containsEntry("memory", new Quantity("1100Mi"));
  }
}
