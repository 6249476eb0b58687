package io.gitfn.workload;

import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.LocalObjectReference;
import io.fabric8.kubernetes.api.model.Probe;
import io.fabric8.kubernetes.api.model.ProbeBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.VolumeMountBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.gitfn.api.Annotations;
import io.gitfn.api.function.Function;
import io.gitfn.api.function.SecretMount;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/** The Deployment that runs a Function's image (reference §2.5, §5.3, §5.4). */
public final class DesiredDeployment {

  public static final String CONTAINER = "function";
  public static final int PORT = 8080;
  static final String HEALTHZ = "/healthz";
  // Read-only secret files are owned by root; the Function runs as another user and must be able to read them.
  static final int SECRET_MODE = 0444;

  private DesiredDeployment() {
  }

  /**
   * The Deployment, named after the Function so that server-side apply always owns the same object.
   *
   * <p>{@code spec.replicas} follows the Function's: an HPA scales the Function through its scale subresource
   * (§1.1), so the Function's replicas is what moves and the Deployment copies it. Without one it is 1, or the
   * HPA's minimum when there is an HPA.
   */
  /** The digests a repository sets on a Function, of the Secrets and ConfigMaps it reads. */
  private static final List<String> DIGESTS = List.of(Annotations.SECRETS_DIGEST, Annotations.CONFIG_MAPS_DIGEST);

  /**
   * The Function's {@code spec.annotations}, and the digests of the Secrets and ConfigMaps it reads when its
   * repository set them: a new digest is a new Pod template, so the Pods roll with the image they have.
   */
  static Map<String, String> podAnnotations(Function fn) {
    Map<String, String> metadata = Objects.requireNonNullElse(fn.getMetadata().getAnnotations(), Map.of());
    if (DIGESTS.stream().noneMatch(metadata::containsKey)) {
      return fn.getSpec().getAnnotations();
    }
    Map<String, String> annotations = new TreeMap<>(Objects.requireNonNullElse(fn.getSpec().getAnnotations(),
        Map.of()));
    DIGESTS.stream().filter(metadata::containsKey).forEach(key -> annotations.put(key, metadata.get(key)));
    return annotations;
  }

  public static Deployment forFunction(Function fn, String image, WorkloadSettings settings) {
    String name = fn.getMetadata().getName();
    return new DeploymentBuilder()
        .withNewMetadata()
        .withName(name)
        .withNamespace(fn.getMetadata().getNamespace())
        .withLabels(ChildLabels.ofFunction(fn))
        .withOwnerReferences(Owner.of(fn))
        .endMetadata()
        .withNewSpec()
        .withReplicas(replicas(fn))
        .withRevisionHistoryLimit(settings.revisionHistoryLimit())
        .withNewSelector().withMatchLabels(ChildLabels.selector(fn)).endSelector()
        // A new version starts before an old one stops: no moment with fewer ready Pods than asked for.
        .withNewStrategy()
        .withType("RollingUpdate")
        .withNewRollingUpdate()
        .withMaxUnavailable(new IntOrString(0))
        .withMaxSurge(new IntOrString(1))
        .endRollingUpdate()
        .endStrategy()
        .withNewTemplate()
        .withNewMetadata()
        .withLabels(ChildLabels.ofPod(fn))
        .withAnnotations(podAnnotations(fn))
        .endMetadata()
        .withNewSpec()
        .withServiceAccountName(settings.serviceAccountName())
        .withImagePullSecrets(settings.imagePullSecret() == null ? List.of()
            : List.of(new LocalObjectReference(settings.imagePullSecret())))
        .withTerminationGracePeriodSeconds(settings.terminationGracePeriodSeconds())
        .withSecurityContext(SecurityContexts.pod(fn))
        .withVolumes(volumes(fn))
        .addNewContainer()
        .withName(CONTAINER)
        .withImage(image)
        .withImagePullPolicy("IfNotPresent")
        .addNewPort().withName("http").withContainerPort(PORT).withProtocol("TCP").endPort()
        .withEnv(FunctionEnv.forFunction(fn, settings))
        .withResources(FunctionProfiles.forFunction(fn, settings.functionPresets(), settings.defaultProfile()))
        .withStartupProbe(startupProbe())
        .withReadinessProbe(readinessProbe())
        .withLivenessProbe(livenessProbe())
        // Endpoints are removed asynchronously; serving a few seconds more drops no in-flight request.
        .withNewLifecycle()
        .withNewPreStop().withNewSleep((long) settings.preStopSeconds()).endPreStop()
        .endLifecycle()
        .withSecurityContext(SecurityContexts.container(fn))
        .withVolumeMounts(mounts(fn))
        .endContainer()
        .endSpec()
        .endTemplate()
        .endSpec()
        .build();
  }

  static int replicas(Function fn) {
    if (fn.getSpec().getReplicas() != null) {
      return fn.getSpec().getReplicas();
    }
    return Scaling.hasAutoscaler(fn) ? fn.getSpec().getScaleConfig().getMinReplicas() : 1;
  }

  /**
   * Kyma's budgets (§5.3): up to 150 s to start, out of rotation at the first failed check, restarted after three.
   * The startup and readiness checks run every second and every two, where Kyma's run every five: a new Pod takes
   * traffic as soon as it can, so that a rollback that needs no build is done in a few seconds, not a dozen.
   */
  static Probe startupProbe() {
    return healthz().withPeriodSeconds(1).withFailureThreshold(150).build();
  }

  static Probe readinessProbe() {
    return healthz().withPeriodSeconds(2).withTimeoutSeconds(2).withFailureThreshold(1).build();
  }

  static Probe livenessProbe() {
    return healthz().withPeriodSeconds(5).withTimeoutSeconds(4).withFailureThreshold(3).build();
  }

  private static ProbeBuilder healthz() {
    return new ProbeBuilder().withNewHttpGet().withPath(HEALTHZ).withPort(new IntOrString(PORT)).endHttpGet();
  }

  private static List<Volume> volumes(Function fn) {
    List<Volume> volumes = new ArrayList<>();
    volumes.add(new VolumeBuilder().withName("tmp")
        .withNewEmptyDir().withSizeLimit(new Quantity("100Mi")).endEmptyDir().build());
    List<SecretMount> secrets = secretMounts(fn);
    for (int i = 0; i < secrets.size(); i++) {
      volumes.add(new VolumeBuilder().withName(secretVolume(i))
          .withNewSecret().withSecretName(secrets.get(i).getSecretName()).withDefaultMode(SECRET_MODE).endSecret()
          .build());
    }
    return volumes;
  }

  private static List<VolumeMount> mounts(Function fn) {
    List<VolumeMount> mounts = new ArrayList<>();
    // The root filesystem is read-only; runtimes and libraries still need a scratch directory.
    mounts.add(new VolumeMountBuilder().withName("tmp").withMountPath("/tmp").build());
    List<SecretMount> secrets = secretMounts(fn);
    for (int i = 0; i < secrets.size(); i++) {
      mounts.add(new VolumeMountBuilder().withName(secretVolume(i)).withMountPath(secrets.get(i).getMountPath())
          .withReadOnly(true).build());
    }
    return mounts;
  }

  /** Kyma names the volume after the Secret, but a Secret name may hold dots, which a volume name may not. */
  private static String secretVolume(int index) {
    return "secret-" + index;
  }

  private static List<SecretMount> secretMounts(Function fn) {
    return fn.getSpec().getSecretMounts() == null ? List.of() : fn.getSpec().getSecretMounts();
  }
}
