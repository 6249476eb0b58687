package io.gitfn.build;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.gitfn.api.function.Function;
import io.gitfn.api.function.FunctionRuntime;
import io.gitfn.api.function.TestFunction;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class DependencyInstallJobTest {

  static final String BASE = "registry.local:5000/base/nodejs22@sha256:" + "ab".repeat(32);
  static final String TARGET = "registry.local:5000/shop/gitfn/dependencies:deps-0123456789abcdef0123456789abcdef";
  static final String RUNTIME = "registry.local:5000/shop/gitfn-dependencies:runtime-0123456789abcdef0123456789abcdef";
  static final String PACKER = "ghcr.io/gitfn/gitfn:0.1.0";
  private static final BuildSettings SETTINGS = BuildSettings.defaults().withPackageRegistrySecret("npm-registry");

  static Job job(BuildSettings settings) {
    Function fn = TestFunction.inline().named("orders").inNamespace("shop").runtime(FunctionRuntime.NODEJS22)
        .code("module.exports = { main: () => 'hi' };").build();
    return DependencyInstallJob.forFunction(fn, "orders-deps-0123456789", "orders-source-0123456789", BASE, TARGET,
        RUNTIME, false, PACKER, settings);
  }

  @Test
  void theInstallRunsInTheBaseImageByDigestAndThePackerInGitfnsImage() {
    PodSpec pod = job(SETTINGS).getSpec().getTemplate().getSpec();

    assertThat(pod.getInitContainers()).as("both start at once").isEmpty();
    assertThat(pod.getContainers()).hasSize(2);
    assertThat(install(pod)).satisfies(install -> {
      assertThat(install.getName()).isEqualTo(BuildlessDeployment.INSTALL);
      assertThat(install.getImage()).isEqualTo(BASE);
    });
    assertThat(pack(pod)).satisfies(pack -> {
      assertThat(pack.getImage()).isEqualTo(PACKER);
      assertThat(pack.getArgs()).containsExactly("pack", "--runtime", "nodejs22", "--installed", "/gitfn",
          "--base", BASE, "--runtime-image", RUNTIME, "--to", TARGET, "--docker-config",
          "/gitfn-registry-auth/config.json", "--wait-for", DependencyInstallJob.EXIT_FILE);
    });
    assertThat(pod.getRestartPolicy()).isEqualTo("Never");
    assertThat(job(SETTINGS).getSpec().getBackoffLimit()).isZero();
  }

  @Test
  void pipCompilesNoPycFilesWhoseBytesWouldDifferFromOneInstallToTheNext() {
    Function fn = TestFunction.inline().named("py").inNamespace("shop").runtime(FunctionRuntime.PYTHON312).build();
    String script = DependencyInstallJob.forFunction(fn, "j", "c", BASE, TARGET, RUNTIME, false, PACKER, SETTINGS).getSpec()
        .getTemplate().getSpec().getContainers().get(0).getCommand().get(2);

    assertThat(script).contains("python3 -m pip install --target packages --no-compile -r requirements.txt")
        .doesNotContain("--target packages -r");
  }

  @Test
  void withTheRuntimeImageInTheRegistryOnlyTheFunctionsPackagesAreInstalledAndPacked() {
    Function fn = TestFunction.inline().named("orders").inNamespace("shop").runtime(FunctionRuntime.NODEJS22).build();
    PodSpec pod = DependencyInstallJob.forFunction(fn, "j", "c", BASE, TARGET, RUNTIME, true, PACKER, SETTINGS)
        .getSpec().getTemplate().getSpec();

    assertThat(install(pod).getCommand().get(2))
        .doesNotContain("gitfn's runtime packages").contains("the Function's dependencies from package.json");
    assertThat(pack(pod).getArgs()).contains("--runtime-image", RUNTIME, "--runtime-present");
    assertThat(install(job(SETTINGS).getSpec().getTemplate().getSpec()).getCommand().get(2))
        .as("without it, gitfn's runtime packages first").contains("gitfn's runtime packages");
  }

  @Test
  void eachSecretIsMountedInTheOneContainerThatNeedsIt() {
    PodSpec pod = job(SETTINGS).getSpec().getTemplate().getSpec();

    assertThat(volumes(install(pod))).contains("package-registry")
        .doesNotContain("registry-credentials");
    assertThat(volumes(pack(pod))).contains("registry-credentials")
        .doesNotContain("package-registry", "source");
    assertThat(pod.getAutomountServiceAccountToken()).isFalse();
  }

  @Test
  void everyContainerRunsWithNoPrivilege() {
    PodSpec pod = job(SETTINGS).getSpec().getTemplate().getSpec();

    assertThat(pod.getSecurityContext().getRunAsNonRoot()).isTrue();
    assertThat(pod.getSecurityContext().getSeccompProfile().getType()).isEqualTo("RuntimeDefault");
    assertThat(pod.getContainers()).hasSize(2).allSatisfy(container -> {
      assertThat(container.getSecurityContext().getAllowPrivilegeEscalation()).isFalse();
      assertThat(container.getSecurityContext().getPrivileged()).isFalse();
      assertThat(container.getSecurityContext().getReadOnlyRootFilesystem()).isTrue();
      assertThat(container.getSecurityContext().getCapabilities().getDrop()).containsExactly("ALL");
      assertThat(container.getSecurityContext().getCapabilities().getAdd()).isNullOrEmpty();
    });
    assertThat(pod.getVolumes()).allSatisfy(volume -> assertThat(
        volume.getEmptyDir() != null || volume.getConfigMap() != null || volume.getSecret() != null).isTrue());
  }

  @Test
  void aRegistrySpokenToOverPlainHttpIsPassedOnOnce() {
    List<String> args = job(SETTINGS.withInsecureRegistries(Set.of("registry.local:5000")))
        .getSpec().getTemplate().getSpec().getContainers().get(1).getArgs();

    assertThat(args).endsWith("--insecure-registry", "registry.local:5000");
    assertThat(args.stream().filter("--insecure-registry"::equals)).hasSize(1);
  }

  @Test
  void aBaseImageByTagIsRefused() {
    Function fn = TestFunction.inline().named("orders").inNamespace("shop").build();
    assertThatThrownBy(() -> DependencyInstallJob.forFunction(fn, "j", "c", "registry.local/node:22", TARGET, RUNTIME,
        false, PACKER, SETTINGS)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("the install runs on the base image by digest, not registry.local/node:22");
  }

  @Test
  void theInstallEndsByWritingItsExitCodeWhereThePackContainerWaitsForIt() {
    PodSpec pod = job(SETTINGS).getSpec().getTemplate().getSpec();

    assertThat(install(pod).getCommand().get(2)).startsWith("trap '").contains(DependencyInstallJob.EXIT_FILE);
    assertThat(install(pod).getVolumeMounts()).anySatisfy(mount -> {
      assertThat(mount.getMountPath()).isEqualTo("/gitfn-install");
      assertThat(mount.getReadOnly()).isFalse();
    });
    assertThat(pack(pod).getVolumeMounts()).anySatisfy(mount -> {
      assertThat(mount.getMountPath()).isEqualTo("/gitfn-install");
      assertThat(mount.getReadOnly()).isTrue();
    });
  }

  private static Container install(PodSpec pod) {
    return pod.getContainers().stream().filter(c -> c.getName().equals(BuildlessDeployment.INSTALL)).findFirst()
        .orElseThrow();
  }

  private static Container pack(PodSpec pod) {
    return pod.getContainers().stream().filter(c -> c.getName().equals(DependencyInstallJob.PACK)).findFirst()
        .orElseThrow();
  }

  private static List<String> volumes(Container container) {
    return container.getVolumeMounts().stream().map(VolumeMount::getName).toList();
  }
}
