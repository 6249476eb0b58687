package io.gitfn.build;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.PodSecurityContext;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirementsBuilder;
import io.fabric8.kubernetes.api.model.SecurityContext;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.fabric8.kubernetes.api.model.VolumeMountBuilder;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.KeyToPath;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.gitfn.api.Labels;
import io.gitfn.api.function.Function;
import io.gitfn.workload.ChildLabels;
import io.gitfn.workload.Owner;
import io.gitfn.workload.SecurityContexts;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The Job that makes a dependency image (docs/functions.md#layers), with no privilege anywhere: its Pod meets the
 * Pod Security {@code restricted} level (non-root, no capability, no privilege escalation, RuntimeDefault seccomp,
 * read-only root filesystems, only emptyDir, ConfigMap and Secret volumes).
 *
 * <ol>
 *   <li>The container {@value BuildlessDeployment#INSTALL} runs in the runtime's base image, named by digest, and is
 *       buildless mode's install ({@link InstallScript}, without the cache): it copies the runtime's files and the
 *       Function's dependency files from the source ConfigMap into an emptyDir, and runs {@code npm ci} or
 *       {@code pip install --target} there, so packages with native code build against the base image's own libc.
 *       Its last act is to write its exit code to {@value #EXIT_FILE}. Only this container mounts the
 *       package-registry Secret.
 *   <li>The container {@value #PACK} runs gitfn's own image: {@code gitfn pack} waits for that file, then reads the
 *       emptyDir, writes the runtime layer and the dependency layer, and pushes the dependency image. Only this
 *       container mounts the push credentials.
 * </ol>
 * Both start at once, rather than the install as an init container, so that the pack container's start and its
 * JVM's (about 2 s on a 2-core node, measured in docs/benchmarks.md#realnode-layered) pass while npm or pip runs
 * instead of after it. The Pod requests the sum of both containers' resources rather than the larger.
 * Neither talks to the API server, so the Pod gets no ServiceAccount token.
 */
public final class DependencyInstallJob {

  /** The value of {@link Labels#RESOURCE} on install Jobs, which sets them apart from a Function's own build Jobs. */
  public static final String RESOURCE = "dependency-install";

  /** The container that packs and pushes. */
  public static final String PACK = "pack";
  static final String REGISTRY_AUTH = "/gitfn-registry-auth";
  /** The emptyDir where the install says it ended; neither layer reads it. */
  static final String INSTALL_STATUS = "/gitfn-install";
  /** The install's exit code, written as it ends, which the pack container waits for. */
  public static final String EXIT_FILE = INSTALL_STATUS + "/exit";

  private DependencyInstallJob() {
  }

  /**
   * The name of the Job, and of the ConfigMap it installs from, that makes the dependency image tagged
   * {@code dependencyTag} ({@link LayerKeys#dependencyTag}): {@code gitfn-} and the tag. One per namespace and
   * dependency key, whichever Function asks first.
   */
  public static String name(String dependencyTag) {
    return "gitfn-" + dependencyTag;
  }

  /** The install Job and the ConfigMap it installs from, in the order they are applied. */
  public record Install(ConfigMap source, Job job) {}

  /**
   * What a dependency change of {@code fn} applies: the runtime's files and {@code build}'s dependency files (not the
   * handler, which no install reads) in a ConfigMap, and the Job, both named {@code name}. The controller applies
   * them; {@code gitfn render --with-workloads} prints them.
   *
   * @throws BuildContextTooLargeException when the files exceed the ConfigMap limit
   */
  public static Install of(Function fn, FunctionBuildPlan build, String name, String base, String target,
      String runtimeImage, boolean runtimePresent, BuildSettings builds) throws BuildContextTooLargeException {
    ConfigMap source = BuildlessSource.of(fn, build, builds).forInstall(fn.getSpec().getRuntime())
        .configMap(fn, name);
    return new Install(source, forFunction(fn, name, name, base, target, runtimeImage, runtimePresent,
        builds.builder().image(), builds));
  }

  /**
   * The Job.
   *
   * @param name the Job's name
   * @param sourceConfigMap a {@link BuildlessSource} ConfigMap with the runtime's files and the dependency files
   * @param base the runtime's base image, by digest ({@code registry/repository@sha256:...})
   * @param target the dependency image, tagged {@link LayerKeys#dependencyTag}
   * @param runtimeImage the runtime image, tagged {@link LayerKeys#runtimeTag}, that the dependency image is made
   *     from
   * @param runtimePresent whether the registry has the runtime image already: then the install and the pack leave
   *     gitfn's runtime packages out, and only the Function's are installed, packed and pushed
   * @param packer gitfn's own image
   */
  public static Job forFunction(Function fn, String name, String sourceConfigMap, String base, String target,
      String runtimeImage, boolean runtimePresent, String packer, BuildSettings builds) {
    if (!base.contains("@sha256:")) {
      throw new IllegalArgumentException("the install runs on the base image by digest, not " + base);
    }
    Map<String, String> labels = new LinkedHashMap<>(ChildLabels.ofFunction(fn));
    labels.put(Labels.RESOURCE, RESOURCE);
    BuildSettings noCache = builds.withDependencyCacheClaim(null);
    Container install = BuildlessDeployment.installer(fn, noCache, new ContainerBuilder()
        .withImage(base)
        .withImagePullPolicy("IfNotPresent")
        .withResources(BuildProfiles.forFunction(fn, builds.buildProfile()))
        .withSecurityContext(SecurityContexts.container((SecurityContext) null))
        .build(), true, !runtimePresent);
    Container installer = new ContainerBuilder(install)
        .withCommand("sh", "-c", InstallScript.reportingExit(install.getCommand().get(2), EXIT_FILE))
        .addToVolumeMounts(BuildlessDeployment.mount("install-status", INSTALL_STATUS, false))
        .build();
    List<Volume> volumes = new ArrayList<>(BuildlessDeployment.volumes(fn, sourceConfigMap, noCache));
    volumes.add(new VolumeBuilder().withName("tmp").withNewEmptyDir().endEmptyDir().build());
    volumes.add(new VolumeBuilder().withName("install-status").withNewEmptyDir().endEmptyDir().build());
    volumes.add(credentialsVolume(builds));
    return new JobBuilder()
        .withNewMetadata()
        .withName(name)
        .withNamespace(fn.getMetadata().getNamespace())
        .withLabels(labels)
        .withOwnerReferences(Owner.of(fn))
        .endMetadata()
        .withNewSpec()
        .withBackoffLimit(0)
        .withActiveDeadlineSeconds(builds.deadline().toSeconds())
        .withNewTemplate()
        .withNewMetadata()
        .withLabels(labels)
        .addToAnnotations("sidecar.istio.io/inject", "false")
        .addToAnnotations(builds.podAnnotations())
        .endMetadata()
        .withNewSpec()
        .withRestartPolicy("Never")
        .withAutomountServiceAccountToken(false)
        .withSecurityContext(SecurityContexts.pod((PodSecurityContext) null))
        .withVolumes(volumes)
        .withContainers(installer, packer(fn, base, target, runtimeImage, runtimePresent, packer, builds))
        .endSpec()
        .endTemplate()
        .endSpec()
        .build();
  }

  private static Container packer(Function fn, String base, String target, String runtimeImage,
      boolean runtimePresent, String image, BuildSettings builds) {
    List<String> args = new ArrayList<>(List.of("pack",
        "--runtime", fn.getSpec().getRuntime().value(),
        "--installed", BuildlessDeployment.APP,
        "--base", base,
        "--runtime-image", runtimeImage,
        "--to", target,
        "--docker-config", REGISTRY_AUTH + "/config.json",
        "--wait-for", EXIT_FILE));
    if (runtimePresent) {
      args.add("--runtime-present");
    }
    for (Optional<String> host : List.of(ImageReference.registryHostOf(base), ImageReference.registryHostOf(target))) {
      if (host.isPresent() && builds.insecure(host.get()) && !args.contains(host.get())) {
        args.add("--insecure-registry");
        args.add(host.get());
      }
    }
    return new ContainerBuilder()
        .withName(PACK)
        .withImage(image)
        .withImagePullPolicy("IfNotPresent")
        .withArgs(args)
        .withTerminationMessagePolicy("FallbackToLogsOnError")
        .withResources(new ResourceRequirementsBuilder()
            .addToRequests("cpu", new Quantity("200m")).addToRequests("memory", new Quantity("256Mi"))
            .addToLimits("memory", new Quantity("512Mi"))
            .build())
        .withSecurityContext(SecurityContexts.container((SecurityContext) null))
        .withVolumeMounts(
            BuildlessDeployment.mount("app", BuildlessDeployment.APP, true),
            credentialsMount(REGISTRY_AUTH),
            BuildlessDeployment.mount("install-status", INSTALL_STATUS, true),
            BuildlessDeployment.mount("tmp", "/tmp", false))
        .build();
  }

  /** The push Secret ({@code --registry-secret}), its {@code .dockerconfigjson} as {@code config.json}. */
  private static Volume credentialsVolume(BuildSettings settings) {
    return new VolumeBuilder().withName("registry-credentials")
        .withNewSecret().withSecretName(settings.registrySecret())
        .withItems(new KeyToPath(".dockerconfigjson", null, "config.json"))
        .endSecret().build();
  }

  /** The push Secret's {@code config.json} at {@code dir}, read-only. */
  private static VolumeMount credentialsMount(String dir) {
    return new VolumeMountBuilder().withName("registry-credentials").withMountPath(dir).withReadOnly(true).build();
  }
}
