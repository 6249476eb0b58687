package io.gitfn.build;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.VolumeMountBuilder;
import io.gitfn.api.function.Function;
import java.util.ArrayList;
import java.util.List;

/**
 * buildah's build container: {@code buildah build} with vfs storage in an emptyDir and chroot isolation, then
 * {@code buildah push} of the image it tagged, with the push Secret as its auth file.
 *
 * <p>buildah builds as root inside a user namespace it makes itself, which needs only SETUID, SETGID (to write
 * the namespace's id maps) and SETFCAP (to map root); the rest of the container's capabilities are dropped, and
 * nothing is privileged. Making that namespace needs {@code unshare(CLONE_NEWUSER)}, which the container
 * runtimes' RuntimeDefault seccomp profiles refuse without CAP_SYS_ADMIN, so no seccomp profile is set and the
 * node's default applies.
 */
final class BuildahContainer {

  /** Where the push Secret's {@code config.json} is, named by {@code REGISTRY_AUTH_FILE}. */
  static final String AUTH_DIR = "/gitfn/registry-credentials";
  /** buildah's storage for root: an emptyDir, so vfs copies go to the node's disk, not the container's layer. */
  static final String STORAGE = "/var/lib/containers";
  static final String STORAGE_VOLUME = "buildah-storage";

  /**
   * Builds with the container's args, then pushes what it tagged. {@code "$@"} keeps every arg one word, and the
   * args stay in the Pod spec as they are, where anything can read them (as kwok's build stages read
   * {@code --build-arg=base_image=}). The push runs only after a build that succeeded, and its exit code is the
   * container's.
   */
  static final String SCRIPT =
      "buildah build \"$@\" && exec buildah push --tls-verify=\"$GITFN_PUSH_TLS_VERIFY\" \"$GITFN_IMAGE\"";

  private BuildahContainer() {
  }

  static Container of(Function fn, ContentKey key, BuildSettings settings, List<VolumeMount> context) {
    String image = BuildJobSpec.image(fn, key, settings);
    List<VolumeMount> mounts = new ArrayList<>(context);
    mounts.add(BuildJobSpec.credentialsMount(AUTH_DIR));
    mounts.add(new VolumeMountBuilder().withName(STORAGE_VOLUME).withMountPath(STORAGE).build());
    return new ContainerBuilder()
        .withName(BuildJobSpec.CONTAINER)
        .withImage(settings.builder().image())
        .withCommand("/bin/sh", "-c", SCRIPT, "buildah")
        .withArgs(args(fn, key, settings))
        // vfs for the build and the push alike: both read the same storage.
        .addNewEnv().withName("STORAGE_DRIVER").withValue("vfs").endEnv()
        .addNewEnv().withName("REGISTRY_AUTH_FILE").withValue(AUTH_DIR + "/config.json").endEnv()
        .addNewEnv().withName("GITFN_IMAGE").withValue(image).endEnv()
        .addNewEnv().withName("GITFN_PUSH_TLS_VERIFY")
        .withValue(Boolean.toString(!settings.insecure(settings.registryHost()))).endEnv()
        .withResources(BuildProfiles.forFunction(fn, settings.buildProfile()))
        .withVolumeMounts(mounts)
        // The Pod's status then carries the end of buildah's log when it fails, which BuildReady shows.
        .withTerminationMessagePolicy("FallbackToLogsOnError")
        .withNewSecurityContext()
        .withRunAsUser(0L)
        .withRunAsGroup(0L)
        .withAllowPrivilegeEscalation(false)
        .withNewCapabilities().withDrop("ALL").withAdd("SETUID", "SETGID", "SETFCAP").endCapabilities()
        .endSecurityContext()
        .build();
  }

  /**
   * The settings' args, then chroot isolation, the Dockerfile, the tag that the push reads, the base image and
   * the context. TLS verification (and with it HTTPS) is off for the base image's pull only when its registry is
   * listed insecure; the push decides the same for the push registry through {@code GITFN_PUSH_TLS_VERIFY}.
   */
  static List<String> args(Function fn, ContentKey key, BuildSettings settings) {
    String base = ContentKey.baseImage(fn, settings);
    List<String> args = new ArrayList<>(settings.builder().args());
    args.add("--isolation=chroot");
    args.add("--file=" + BuildJobSpec.WORKSPACE + "/" + BuildContext.DOCKERFILE);
    args.add("--tag=" + BuildJobSpec.image(fn, key, settings));
    args.add("--build-arg=base_image=" + base);
    if (ImageReference.registryHostOf(base).filter(settings::insecure).isPresent()) {
      args.add("--tls-verify=false");
    }
    args.add(BuildJobSpec.WORKSPACE);
    return args;
  }

  static Volume storageVolume() {
    return new VolumeBuilder().withName(STORAGE_VOLUME).withNewEmptyDir().endEmptyDir().build();
  }
}
