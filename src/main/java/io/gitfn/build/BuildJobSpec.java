package io.gitfn.build;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.KeyToPath;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.VolumeMountBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.gitfn.api.Labels;
import io.gitfn.api.function.Function;
import io.gitfn.workload.ChildLabels;
import io.gitfn.workload.Owner;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The Job that builds a Function's image for one content key (reference §4.1, §4.2), with the builder the settings
 * name. Whichever it is, it gets the same context (the ConfigMap's files under {@value #WORKSPACE}), destination,
 * push Secret, package-registry Secret and {@code base_image} build arg; {@link KanikoContainer} and
 * {@link BuildahContainer} say how each tool takes them.
 */
public final class BuildJobSpec {

  public static final String WORKSPACE = "/workspace";
  /** The build Pod's one container, whichever tool it runs. */
  public static final String CONTAINER = "build";
  static final int KEY_IN_NAME = 10;
  // A Job's name is also the value of its Pods' job-name label, which may have at most 63 characters.
  static final int NAME_LIMIT = 63;
  static final int NAME_HASH = 6;

  private BuildJobSpec() {
  }

  /**
   * {@code <fn>-build-<first 10 of key>}. The name depends only on the Function and the key, so a restarted
   * controller finds the Job it started instead of starting a second one. When the whole would pass 63 characters
   * the Function's name is shortened and followed by {@value #NAME_HASH} hex digits of its SHA-256: two Functions
   * whose long names share a prefix and whose sources are equal would otherwise share a Job, and one would run
   * the image the other's Job pushed.
   */
  public static String name(Function fn, ContentKey key) {
    return name(fn, "build", key);
  }

  /** {@code <fn>-<kind>-<first 10 of key>}, shortened and hashed as {@link #name(Function, ContentKey)} says. */
  static String name(Function fn, String kind, ContentKey key) {
    String suffix = "-" + kind + "-" + key.value().substring(0, KEY_IN_NAME);
    String fnName = fn.getMetadata().getName();
    if (fnName.length() + suffix.length() <= NAME_LIMIT) {
      return fnName + suffix;
    }
    String hash = "-" + HexFormat.of().formatHex(sha256(fnName)).substring(0, NAME_HASH);
    String prefix = fnName.substring(0, NAME_LIMIT - hash.length() - suffix.length()).replaceAll("[-.]+$", "");
    return prefix + hash + suffix;
  }

  private static byte[] sha256(String text) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java runtime has SHA-256", e);
    }
  }

  /**
   * {@code <registry>/<namespace>/<name>:<key tag>}, the image a build pushes and the Deployment runs. Neither
   * part can hold a {@code /}, so each Function has a repository of its own, and a registry can scope push
   * credentials to {@code <registry>/<namespace>/*}. ({@code <namespace>-<name>} was ambiguous: namespace
   * {@code a} with Function {@code b-c} and namespace {@code a-b} with Function {@code c} shared one.)
   */
  public static String image(Function fn, ContentKey key, BuildSettings settings) {
    return settings.registry() + "/" + fn.getMetadata().getNamespace() + "/" + fn.getMetadata().getName()
        + ":" + key.tag();
  }

  /**
   * The build Job: one attempt ({@code backoffLimit 0}, {@code restartPolicy Never}), so a failed build reports
   * its failure instead of retrying with the same input.
   *
   * @param contextConfigMap the ConfigMap holding the {@link BuildContext}
   */
  public static Job forFunction(Function fn, ContentKey key, String contextConfigMap, BuildSettings settings) {
    Map<String, String> labels = new LinkedHashMap<>(ChildLabels.ofFunction(fn));
    labels.put(Labels.CONTENT_KEY, key.tag());
    return new JobBuilder()
        .withNewMetadata()
        .withName(name(fn, key))
        .withNamespace(fn.getMetadata().getNamespace())
        .withLabels(labels)
        .withOwnerReferences(Owner.of(fn))
        .endMetadata()
        .withNewSpec()
        .withParallelism(1)
        .withCompletions(1)
        .withBackoffLimit(0)
        // A build whose install never ends fails here, and frees its slot in the queue.
        .withActiveDeadlineSeconds(settings.deadline().toSeconds())
        .withNewTemplate()
        .withNewMetadata()
        .withLabels(labels)
        // An Istio sidecar would keep the Pod, and so the Job, running after the builder exits (§2.5).
        .addToAnnotations("sidecar.istio.io/inject", "false")
        .addToAnnotations(settings.podAnnotations())
        .endMetadata()
        .withNewSpec()
        .withRestartPolicy("Never")
        // The builder talks to registries, never to the API server; code a dependency runs during the build must
        // not get the namespace's ServiceAccount token either.
        .withAutomountServiceAccountToken(false)
        .withVolumes(volumes(fn, contextConfigMap, settings))
        .withContainers(container(fn, key, settings))
        .endSpec()
        .endTemplate()
        .endSpec()
        .build();
  }

  private static Container container(Function fn, ContentKey key, BuildSettings settings) {
    List<VolumeMount> context = contextMounts(fn, settings);
    return switch (settings.builder().tool()) {
      case KANIKO -> KanikoContainer.of(fn, key, settings, context);
      case BUILDAH -> BuildahContainer.of(fn, key, settings, context);
      case LAYERED -> throw new IllegalStateException("the layered builder runs no build Job: the controller"
          + " assembles images itself and runs a DependencyInstallJob for new dependencies");
    };
  }

  private static List<Volume> volumes(Function fn, String contextConfigMap, BuildSettings settings) {
    List<Volume> volumes = new ArrayList<>();
    volumes.add(new VolumeBuilder().withName("context")
        .withNewConfigMap().withName(contextConfigMap).withItems(contextItems(fn, settings)).endConfigMap().build());
    volumes.add(credentialsVolume(settings));
    if (settings.builder().tool() == ImageBuilder.Tool.BUILDAH) {
      volumes.add(BuildahContainer.storageVolume());
    }
    if (settings.packageRegistrySecret() != null) {
      String file = RuntimeFiles.of(fn.getSpec().getRuntime()).packageRegistryConfig();
      volumes.add(new VolumeBuilder().withName("package-registry")
          .withNewSecret().withSecretName(settings.packageRegistrySecret())
          .withItems(new KeyToPath(file, null, file))
          .endSecret().build());
    }
    return volumes;
  }

  /**
   * Every key of the context ConfigMap and its path in the build context: the Function's files and the Dockerfile
   * at the root, the runtime's flat keys back at their paths below {@code runtime/}. Sorted by path, so the Job
   * is the same on every pass.
   */
  static List<KeyToPath> contextItems(Function fn, BuildSettings settings) {
    RuntimeFiles files = RuntimeFiles.of(fn.getSpec().getRuntime());
    Map<String, String> pathToKey = new TreeMap<>();
    for (String file : List.of(BuildContext.DOCKERFILE, files.source(), files.dependencies())) {
      pathToKey.put(file, file);
    }
    for (String path : settings.runtimes().of(fn.getSpec().getRuntime()).files().keySet()) {
      pathToKey.put(RuntimeSource.contextPath(path), RuntimeSource.contextKey(path));
    }
    List<KeyToPath> items = new ArrayList<>();
    pathToKey.forEach((path, key) -> items.add(new KeyToPath(key, null, path)));
    return items;
  }

  /**
   * Each context file is mounted on its own with subPath, the item's path: a whole-volume mount gives symlinks,
   * and kaniko's COPY needs real files (§4.2). Kubernetes resolves a subPath's symlinks inside the volume, so
   * {@code runtime/lib/app.mjs} is the real file. The package-registry Secret follows at
   * {@code registry-config/}; the push credentials are the builder's own mount.
   */
  private static List<VolumeMount> contextMounts(Function fn, BuildSettings settings) {
    List<VolumeMount> mounts = new ArrayList<>();
    for (KeyToPath item : contextItems(fn, settings)) {
      mounts.add(new VolumeMountBuilder().withName("context").withMountPath(WORKSPACE + "/" + item.getPath())
          .withSubPath(item.getPath()).withReadOnly(true).build());
    }
    if (settings.packageRegistrySecret() != null) {
      mounts.add(new VolumeMountBuilder().withName("package-registry")
          .withMountPath(WORKSPACE + "/" + Dockerfiles.REGISTRY_CONFIG_DIR).withReadOnly(true).build());
    }
    return mounts;
  }

  /** The push Secret ({@code --registry-secret}), its {@code .dockerconfigjson} as {@code config.json}. */
  static Volume credentialsVolume(BuildSettings settings) {
    return new VolumeBuilder().withName("registry-credentials")
        .withNewSecret().withSecretName(settings.registrySecret())
        .withItems(new KeyToPath(".dockerconfigjson", null, "config.json"))
        .endSecret().build();
  }

  /** The push Secret's {@code config.json} at {@code dir}, read-only. */
  static VolumeMount credentialsMount(String dir) {
    return new VolumeMountBuilder().withName("registry-credentials").withMountPath(dir).withReadOnly(true).build();
  }
}
