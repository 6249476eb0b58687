package io.gitfn.build;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.gitfn.api.function.Function;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * kaniko's build container: the executor reads the context from {@value BuildJobSpec#WORKSPACE}, builds, and
 * pushes to the destination itself, with the push Secret as its Docker config.
 */
final class KanikoContainer {

  /** kaniko reads {@code config.json} from {@code $DOCKER_CONFIG}. */
  static final String DOCKER_CONFIG = "/kaniko/.docker";

  private KanikoContainer() {
  }

  static Container of(Function fn, ContentKey key, BuildSettings settings, List<VolumeMount> context) {
    List<VolumeMount> mounts = new ArrayList<>(context);
    mounts.add(BuildJobSpec.credentialsMount(DOCKER_CONFIG));
    return new ContainerBuilder()
        .withName(BuildJobSpec.CONTAINER)
        .withImage(settings.builder().image())
        .withArgs(args(fn, key, settings))
        .addNewEnv().withName("DOCKER_CONFIG").withValue(DOCKER_CONFIG + "/").endEnv()
        .withResources(BuildProfiles.forFunction(fn, settings.buildProfile()))
        .withVolumeMounts(mounts)
        // The Pod's status then carries the end of kaniko's log when it fails, which BuildReady shows.
        .withTerminationMessagePolicy("FallbackToLogsOnError")
        // kaniko unpacks the base image as root into its own filesystem; Kyma's narrowest working set (§4.1).
        .withNewSecurityContext()
        .withRunAsUser(0L)
        .withRunAsGroup(0L)
        .withNewCapabilities().withDrop("ALL").withAdd("CHOWN", "FOWNER", "SETGID", "DAC_OVERRIDE").endCapabilities()
        .withNewSeccompProfile().withType("RuntimeDefault").endSeccompProfile()
        .endSecurityContext()
        .build();
  }

  /**
   * The settings' args, then the context, Dockerfile, destination and base image. Each insecure registry of the
   * build gets {@code --insecure-registry} (plain HTTP) and {@code --skip-tls-verify-registry}, which kaniko
   * applies to pushes and pulls of that registry only; its cache repository is on the push registry too.
   */
  static List<String> args(Function fn, ContentKey key, BuildSettings settings) {
    List<String> args = new ArrayList<>(settings.builder().args());
    args.add("--context=dir://" + BuildJobSpec.WORKSPACE);
    args.add("--dockerfile=" + BuildJobSpec.WORKSPACE + "/" + BuildContext.DOCKERFILE);
    args.add("--destination=" + BuildJobSpec.image(fn, key, settings));
    args.add("--build-arg=base_image=" + ContentKey.baseImage(fn, settings));
    for (String host : insecureHosts(fn, settings)) {
      args.add("--insecure-registry=" + host);
      args.add("--skip-tls-verify-registry=" + host);
    }
    return args;
  }

  /** The push registry's host and the base image's, sorted, as far as the settings list them insecure. */
  private static List<String> insecureHosts(Function fn, BuildSettings settings) {
    Set<String> hosts = new TreeSet<>();
    hosts.add(settings.registryHost());
    ImageReference.registryHostOf(ContentKey.baseImage(fn, settings)).ifPresent(hosts::add);
    return hosts.stream().filter(settings::insecure).toList();
  }
}
