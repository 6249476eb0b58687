package io.gitfn.build;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.gitfn.api.function.Function;
import io.gitfn.api.function.FunctionRuntime;
import io.gitfn.api.function.TestFunction;
import io.gitfn.workload.DesiredDeployment;
import io.gitfn.workload.SecurityContexts;
import io.gitfn.workload.WorkloadSettings;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class BuildlessDeploymentTest {

  private static final WorkloadSettings WORKLOADS = WorkloadSettings.defaults();

  private static Deployment deployment(Function fn, BuildSettings builds) {
    return BuildlessDeployment.forFunction(fn, "orders-src-0123456789", builds, WORKLOADS);
  }

  private static PodSpec pod(Deployment deployment) {
    return deployment.getSpec().getTemplate().getSpec();
  }

  private static Container function(Deployment deployment) {
    return pod(deployment).getContainers().get(0);
  }

  private static Container install(Deployment deployment) {
    return pod(deployment).getInitContainers().get(0);
  }

  private static Map<String, VolumeMount> mounts(Container container) {
    return container.getVolumeMounts().stream().collect(Collectors.toMap(VolumeMount::getMountPath, m -> m));
  }

  private static Map<String, String> env(Container container) {
    return container.getEnv().stream().collect(Collectors.toMap(EnvVar::getName, EnvVar::getValue, (a, b) -> b));
  }

  @Test
  void runsTheRuntimesBaseImageWithTheImagesCommandAndNoRegistryImage() {
    Function fn = TestFunction.inline().runtime(FunctionRuntime.NODEJS22).build();
    Deployment deployment = deployment(fn, BuildSettings.defaults());

    assertThat(function(deployment).getImage()).isEqualTo("docker.io/library/node:22-bookworm-slim");
    assertThat(function(deployment).getCommand()).containsExactly("node", "/gitfn/runtime/server.mjs");
    assertThat(function(deployment).getWorkingDir()).isEqualTo("/gitfn/function");
    assertThat(install(deployment).getImage()).isEqualTo(function(deployment).getImage());
    // The env is an image's, so the runtime finds the handler where it would in an image.
    assertThat(env(function(deployment))).containsEntry("HANDLER_PATH", "/gitfn/function/handler.js");
  }

  @Test
  void aRuntimeImageOverrideIsTheBaseImage() {
    Function fn = TestFunction.inline().runtimeImageOverride("mirror.local/node:24").build();

    assertThat(function(deployment(fn, BuildSettings.defaults())).getImage()).isEqualTo("mirror.local/node:24");
  }

  @Test
  void theInitContainerSeesTheSourceReadOnlyAndWritesOnlyEmptyDirs() {
    Deployment deployment = deployment(TestFunction.inline().build(), BuildSettings.defaults());
    Map<String, Volume> volumes = pod(deployment).getVolumes().stream()
        .collect(Collectors.toMap(Volume::getName, v -> v));

    assertThat(volumes.get(BuildlessDeployment.SOURCE_VOLUME).getConfigMap().getName())
        .isEqualTo("orders-src-0123456789");
    Map<String, VolumeMount> install = mounts(install(deployment));
    assertThat(install.get("/gitfn-source").getReadOnly()).isTrue();
    for (String writable : List.of("/gitfn", "/gitfn-home", "/tmp")) {
      assertThat(install.get(writable).getReadOnly()).as(writable).isFalse();
      assertThat(volumes.get(install.get(writable).getName()).getEmptyDir()).as(writable).isNotNull();
    }
    assertThat(mounts(function(deployment)).get("/gitfn").getReadOnly()).isTrue();
    assertThat(env(install(deployment))).containsEntry("HOME", "/gitfn-home")
        .containsEntry("NPM_CONFIG_CACHE", "/gitfn-home/.npm");
    assertThat(install(deployment).getTerminationMessagePolicy()).isEqualTo("FallbackToLogsOnError");
  }

  @Test
  void bothContainersKeepTheRestrictedSecurityContextAndNoVolumeIsAHostPath() {
    Deployment deployment = deployment(TestFunction.inline().build(), BuildSettings.defaults());

    for (Container container : List.of(function(deployment), install(deployment))) {
      var security = container.getSecurityContext();
      assertThat(security.getAllowPrivilegeEscalation()).as(container.getName()).isFalse();
      assertThat(security.getReadOnlyRootFilesystem()).as(container.getName()).isTrue();
      assertThat(security.getCapabilities().getDrop()).as(container.getName()).containsExactly("ALL");
    }
    // Non-root and seccomp are the Pod's, so they hold for both containers.
    assertThat(pod(deployment).getSecurityContext().getRunAsNonRoot()).isTrue();
    assertThat(pod(deployment).getSecurityContext().getSeccompProfile().getType()).isEqualTo("RuntimeDefault");
    assertThat(pod(deployment).getVolumes()).allSatisfy(v -> assertThat(v.getHostPath()).isNull());
  }

  @Test
  void nodeInstallsFromTheLockFileWhenThereIsOneAndTheRuntimesPackagesAlways() {
    String script = install(deployment(TestFunction.inline().build(), BuildSettings.defaults())).getCommand().get(2);

    assertThat(script).contains("done < /gitfn-source/gitfn.files")
        .contains("cd /gitfn/runtime\nnpm ci --omit=dev")
        .contains("if [ -e package-lock.json ]; then\n  npm ci --omit=dev")
        .contains("else\n  npm install --omit=dev")
        .contains("installing the Function's dependencies from package-lock.json failed with exit code $code");
  }

  @Test
  void pythonInstallsWithPipTargetIntoThePythonPathsFolders() {
    Function fn = TestFunction.inline().runtime(FunctionRuntime.PYTHON312).build();
    Deployment deployment = deployment(fn, BuildSettings.defaults());
    String script = install(deployment).getCommand().get(2);

    assertThat(script).contains("cd /gitfn/runtime\npython3 -m pip install --target packages -r requirements.txt")
        .contains("cd /gitfn/function\nmkdir -p packages\npython3 -m pip install --target packages");
    assertThat(function(deployment).getCommand()).containsExactly("python3", "/gitfn/runtime/server.py");
    assertThat(env(function(deployment))).containsEntry("PYTHONPATH",
        "/gitfn/function/packages:/gitfn/runtime/packages");
    assertThat(env(install(deployment))).containsEntry("PIP_CACHE_DIR", "/gitfn-home/.cache/pip");
  }

  @Test
  void thePackageRegistrySecretReachesTheInstallOnly() {
    Deployment deployment = deployment(TestFunction.inline().build(),
        BuildSettings.defaults().withPackageRegistrySecret("npm-mirror"));

    Volume secret = pod(deployment).getVolumes().stream().filter(v -> v.getSecret() != null).findFirst().orElseThrow();
    assertThat(secret.getSecret().getSecretName()).isEqualTo("npm-mirror");
    assertThat(env(install(deployment))).containsEntry("NPM_CONFIG_USERCONFIG", "/gitfn-registry/.npmrc");
    assertThat(mounts(install(deployment)).get("/gitfn-registry").getName()).isEqualTo(secret.getName());
    assertThat(mounts(function(deployment))).doesNotContainKey("/gitfn-registry");
    assertThat(env(function(deployment))).doesNotContainKey("NPM_CONFIG_USERCONFIG");
  }

  @Test
  void aNamespaceWithoutThePackageRegistrySecretStillStartsItsPodsAsInKyma() {
    Deployment deployment = deployment(TestFunction.inline().build(),
        BuildSettings.defaults().withPackageRegistrySecret("npm-mirror"));

    Volume secret = pod(deployment).getVolumes().stream().filter(v -> v.getSecret() != null).findFirst().orElseThrow();
    assertThat(secret.getSecret().getOptional()).isTrue();
    assertThat(install(deployment).getCommand().get(2))
        .contains("the package-registry Secret npm-mirror has no .npmrc in this namespace");
  }

  @Test
  void twoVersionsDifferOnlyInTheSourceConfigMapsName() {
    Function fn = TestFunction.inline().build();
    Deployment one = BuildlessDeployment.forFunction(fn, "orders-src-1111111111", BuildSettings.defaults(), WORKLOADS);
    Deployment two = BuildlessDeployment.forFunction(fn, "orders-src-2222222222", BuildSettings.defaults(), WORKLOADS);

    pod(two).getVolumes().stream().filter(v -> v.getName().equals(BuildlessDeployment.SOURCE_VOLUME)).findFirst()
        .orElseThrow().getConfigMap().setName("orders-src-1111111111");
    assertThat(two).isEqualTo(one);
    assertThat(one.getSpec().getStrategy().getRollingUpdate().getMaxUnavailable().getIntVal()).isZero();
    assertThat(function(one).getName()).isEqualTo(DesiredDeployment.CONTAINER);
  }

  @Test
  void withADependencyCacheOnlyTheInstallMountsTheClaimInAFolderOfItsFunction() {
    Function fn = TestFunction.inline().named("orders").build();
    Deployment deployment = deployment(fn, BuildSettings.defaults().withDependencyCacheClaim("gitfn-dependencies"));

    Volume cache = pod(deployment).getVolumes().stream().filter(v -> v.getPersistentVolumeClaim() != null)
        .findFirst().orElseThrow();
    assertThat(cache.getPersistentVolumeClaim().getClaimName()).isEqualTo("gitfn-dependencies");
    assertThat(mounts(install(deployment)).get("/gitfn-cache").getName()).isEqualTo(cache.getName());
    assertThat(mounts(install(deployment)).get("/gitfn-cache").getReadOnly()).isFalse();
    assertThat(env(install(deployment))).containsEntry("GITFN_DEPENDENCY_CACHE", "/gitfn-cache/orders");
    assertThat(mounts(function(deployment))).doesNotContainKey("/gitfn-cache");
    // The claim's files belong to the Pods' group, whichever user a later version runs as.
    assertThat(pod(deployment).getSecurityContext().getFsGroup()).isEqualTo(SecurityContexts.RUN_AS);
    assertThat(pod(deployment).getSecurityContext().getFsGroupChangePolicy()).isEqualTo("OnRootMismatch");
  }

  @Test
  void withADependencyCacheThePodCopiesAnEntryOfItsKeyInsteadOfInstalling() {
    Function fn = TestFunction.inline().build();
    String script = install(deployment(fn, BuildSettings.defaults().withDependencyCacheClaim("deps"))).getCommand()
        .get(2);

    assertThat(script)
        .contains("for f in runtime/package-lock.json function/package.json function/package-lock.json; do")
        .contains("if [ -d \"$entry\" ] && cp -a \"$entry/runtime/node_modules\" /gitfn/runtime/ && cp -a"
            + " \"$entry/function/node_modules\" /gitfn/function/; then")
        .contains("gitfn: dependencies $key from the cache, nothing to install")
        .contains("  npm ci --omit=dev")
        .contains("mv -T \"$tmp\" \"$entry\"")
        .contains("-mtime +7 -exec rm -rf");
    assertThat(install(deployment(fn, BuildSettings.defaults())).getCommand().get(2)).doesNotContain("cache");
  }

  @Test
  void withoutADependencyCacheThePodHasNoClaimAndNoFsGroup() {
    Deployment deployment = deployment(TestFunction.inline().build(), BuildSettings.defaults());

    assertThat(pod(deployment).getVolumes()).allSatisfy(v -> assertThat(v.getPersistentVolumeClaim()).isNull());
    assertThat(pod(deployment).getSecurityContext().getFsGroup()).isNull();
  }
}
