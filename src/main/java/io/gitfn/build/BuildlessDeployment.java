package io.gitfn.build;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.KeyToPath;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.VolumeMountBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.gitfn.api.function.Function;
import io.gitfn.api.function.FunctionRuntime;
import io.gitfn.workload.DesiredDeployment;
import io.gitfn.workload.ImageLayout;
import io.gitfn.workload.WorkloadSettings;
import java.util.ArrayList;
import java.util.List;

/**
 * The Deployment of a buildless Function: {@link DesiredDeployment}'s, on the runtime's base image, with an init
 * container that installs the dependencies at every Pod start.
 *
 * <p>The Pod has the image's layout ({@link ImageLayout}) on an emptyDir mounted at {@value #APP}, so the env,
 * paths and command are an image's: the init container copies the source ConfigMap's files there, as its index
 * says ({@link BuildlessSource#INDEX}), and installs
 * gitfn's runtime packages and the Function's dependencies beside them; the runtime container mounts it read-only.
 * The files are copied, not run from the ConfigMap volume, because Node.js resolves an ES module's imports from the
 * file's own folder, which must hold its {@code node_modules}.
 *
 * <p>Both containers keep {@link DesiredDeployment}'s security context (non-root, no privilege escalation, no
 * capabilities, RuntimeDefault seccomp, read-only root) and the volumes are emptyDir, ConfigMap, Secret and, for the
 * dependency cache when the controller has one, a PersistentVolumeClaim that only the init container mounts, so the
 * Pod meets the Pod Security {@code restricted} level. HOME and the package managers' caches are on an emptyDir.
 */
public final class BuildlessDeployment {

  /** The init container's name; the controller reads its termination to say why an install failed. */
  public static final String INSTALL = "install";
  /** The emptyDir with the runtime, the Function and their packages: the image's {@code /gitfn}. */
  static final String APP = "/gitfn";
  /** Where the init container sees the source ConfigMap. */
  static final String SOURCE = "/gitfn-source";
  static final String HOME = "/gitfn-home";
  static final String REGISTRY_CONFIG = "/gitfn-registry";
  /** Where the init container sees the dependency cache's claim, when there is one. */
  static final String CACHE = "/gitfn-cache";
  /** The variable that names this Function's folder of the cache, for the install script. */
  static final String CACHE_DIR_ENV = "GITFN_DEPENDENCY_CACHE";
  /** The volume that mounts the source ConfigMap; the controller compares it to tell new Pods from old. */
  public static final String SOURCE_VOLUME = "source";

  private BuildlessDeployment() {
  }

  /**
   * The Deployment that runs the source of one ConfigMap. It names nothing else of that version, so a revert or a
   * pin to an earlier key changes only the ConfigMap's name.
   *
   * @param sourceConfigMap the {@link BuildlessSource}'s ConfigMap
   */
  public static Deployment forFunction(Function fn, String sourceConfigMap, BuildSettings builds,
      WorkloadSettings workloads) {
    FunctionRuntime runtime = fn.getSpec().getRuntime();
    Deployment deployment = DesiredDeployment.forFunction(fn, ContentKey.baseImage(fn, builds), workloads);
    PodSpec pod = deployment.getSpec().getTemplate().getSpec();
    Container function = pod.getContainers().stream()
        .filter(c -> c.getName().equals(DesiredDeployment.CONTAINER)).findFirst().orElseThrow();
    function.setCommand(command(runtime));
    function.setArgs(List.of());
    function.setWorkingDir(ImageLayout.FUNCTION_DIR);
    function.getVolumeMounts().add(mount("app", APP, true));
    pod.getVolumes().addAll(volumes(fn, sourceConfigMap, builds));
    pod.setInitContainers(List.of(installer(fn, builds, function, false)));
    if (builds.dependencyCacheClaim() != null && pod.getSecurityContext().getFsGroup() == null) {
      // The claim's files belong to the Pods' group, so that every version's Pods, whatever user they run as, can
      // write it; the kubelet changes the owner only when the volume's root is not the group's yet.
      pod.getSecurityContext().setFsGroup(pod.getSecurityContext().getRunAsGroup());
      pod.getSecurityContext().setFsGroupChangePolicy("OnRootMismatch");
    }
    return deployment;
  }

  /** The runtime server, as an image's {@code ENTRYPOINT} starts it. */
  static List<String> command(FunctionRuntime runtime) {
    return runtime.isNodejs()
        ? List.of("node", ImageLayout.RUNTIME_DIR + "/server.mjs")
        : List.of("python3", ImageLayout.RUNTIME_DIR + "/server.py");
  }

  /**
   * The install init container, with {@code function}'s image, pull policy, resources and security context.
   *
   * @param packed whether what it installs is packed into a layer (see {@link InstallScript#of})
   */
  static Container installer(Function fn, BuildSettings builds, Container function, boolean packed) {
    return installer(fn, builds, function, packed, true);
  }

  /** @param withRuntime whether gitfn's runtime packages are installed too ({@link InstallScript}) */
  static Container installer(Function fn, BuildSettings builds, Container function, boolean packed,
      boolean withRuntime) {
    FunctionRuntime runtime = fn.getSpec().getRuntime();
    List<VolumeMount> mounts = new ArrayList<>();
    mounts.add(mount(SOURCE_VOLUME, SOURCE, true));
    mounts.add(mount("app", APP, false));
    mounts.add(mount("home", HOME, false));
    mounts.add(mount("tmp", "/tmp", false));
    List<EnvVar> env = new ArrayList<>();
    env.add(new EnvVar("HOME", HOME, null));
    if (runtime.isNodejs()) {
      env.add(new EnvVar("NPM_CONFIG_CACHE", HOME + "/.npm", null));
      env.add(new EnvVar("NPM_CONFIG_UPDATE_NOTIFIER", "false", null));
    } else {
      env.add(new EnvVar("PIP_CACHE_DIR", HOME + "/.cache/pip", null));
      env.add(new EnvVar("PIP_DISABLE_PIP_VERSION_CHECK", "1", null));
      env.add(new EnvVar("PYTHONDONTWRITEBYTECODE", "1", null));
    }
    if (builds.dependencyCacheClaim() != null) {
      mounts.add(mount("dependency-cache", CACHE, false));
      // One folder per Function, so that one Function's clean-up never removes another's entries.
      env.add(new EnvVar(CACHE_DIR_ENV, CACHE + "/" + fn.getMetadata().getName(), null));
    }
    if (builds.packageRegistrySecret() != null) {
      String file = RuntimeFiles.of(runtime).packageRegistryConfig();
      mounts.add(mount("package-registry", REGISTRY_CONFIG, true));
      env.add(new EnvVar(runtime.isNodejs() ? "NPM_CONFIG_USERCONFIG" : "PIP_CONFIG_FILE",
          REGISTRY_CONFIG + "/" + file, null));
    }
    return new ContainerBuilder()
        .withName(INSTALL)
        .withImage(function.getImage())
        .withImagePullPolicy(function.getImagePullPolicy())
        .withCommand("sh", "-c", InstallScript.of(runtime, builds.dependencyCacheClaim() != null, packed,
            withRuntime, builds.packageRegistrySecret()))
        .withWorkingDir(HOME)
        .withEnv(env)
        // The tail of the install's output becomes the termination message, which the Function's status quotes.
        .withTerminationMessagePolicy("FallbackToLogsOnError")
        .withResources(function.getResources())
        .withSecurityContext(function.getSecurityContext())
        .withVolumeMounts(mounts)
        .build();
  }

  /** The volumes the install container mounts, and the emptyDir it fills, {@code app}. */
  static List<Volume> volumes(Function fn, String sourceConfigMap, BuildSettings builds) {
    List<Volume> volumes = new ArrayList<>();
    volumes.add(new VolumeBuilder().withName(SOURCE_VOLUME)
        .withNewConfigMap().withName(sourceConfigMap).endConfigMap().build());
    volumes.add(new VolumeBuilder().withName("app").withNewEmptyDir().endEmptyDir().build());
    volumes.add(new VolumeBuilder().withName("home").withNewEmptyDir().endEmptyDir().build());
    if (builds.dependencyCacheClaim() != null) {
      volumes.add(new VolumeBuilder().withName("dependency-cache").withNewPersistentVolumeClaim()
          .withClaimName(builds.dependencyCacheClaim()).endPersistentVolumeClaim().build());
    }
    if (builds.packageRegistrySecret() != null) {
      String file = RuntimeFiles.of(fn.getSpec().getRuntime()).packageRegistryConfig();
      // Optional, as in Kyma: a namespace without the Secret (or without the file in it) installs from the default
      // registries instead of leaving the Pod waiting for a volume; the install says so (InstallScript).
      volumes.add(new VolumeBuilder().withName("package-registry")
          .withNewSecret().withSecretName(builds.packageRegistrySecret()).withOptional(true)
          .withItems(new KeyToPath(file, null, file)).endSecret().build());
    }
    return volumes;
  }

  static VolumeMount mount(String volume, String path, boolean readOnly) {
    return new VolumeMountBuilder().withName(volume).withMountPath(path).withReadOnly(readOnly).build();
  }
}
