package io.gitfn.build;

import io.gitfn.api.KubernetesNames;
import io.gitfn.api.function.BuildMode;
import io.gitfn.api.function.Function;
import io.gitfn.api.function.FunctionRuntime;
import java.time.Duration;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * How gitfn builds images: where they go, which builder makes them and from which base images.
 *
 * @param registry host[:port][/path] that images are pushed to and pulled from, such as {@code registry.local:5000}
 * @param builder the builder, layered, with the image its install Jobs pack with
 * @param baseImages the default base image of each runtime, used unless a Function sets runtimeImageOverride
 * @param registrySecret a {@code kubernetes.io/dockerconfigjson} Secret in the Function's namespace that the
 *     controller and install Jobs push with
 * @param packageRegistrySecret an optional Secret with {@code .npmrc} or {@code pip.conf} for dependency installs,
 *     or null
 * @param buildProfile the build resource profile used when a Function names none
 * @param podAnnotations annotations on every install Job's Pod, such as a service mesh's opt-out
 * @param concurrency how many install Jobs may run at once, cluster-wide; the rest wait in a queue
 * @param runtimes gitfn's runtime servers that go into every image: the jar's own unless a test hands in others
 * @param insecureRegistries registry hosts (host[:port], lower case) gitfn may reach over plain HTTP or
 *     without verifying TLS, as the controller's {@code --insecure-registry} lists them; every other registry,
 *     the push registry and the base image's alike, is HTTPS with verified certificates
 * @param deadline how long an install Job may run, its {@code activeDeadlineSeconds}
 * @param defaultMode how Functions without a {@code gitfn.io/build-mode} annotation run: built images, or buildless
 * @param dependencyCacheClaim the PersistentVolumeClaim, in each Function's namespace, where buildless Pods keep
 *     installed dependencies by key, so that a Pod whose key is there installs nothing; null for none
 * @param pushDeadline how long the controller's own registry requests may take, each, when it assembles an image
 *     in-process (a lookup, or a push of the source layer, config and manifest)
 */
public record BuildSettings(
    String registry,
    ImageBuilder builder,
    Map<FunctionRuntime, String> baseImages,
    String registrySecret,
    String packageRegistrySecret,
    String buildProfile,
    Map<String, String> podAnnotations,
    int concurrency,
    RuntimeSources runtimes,
    Set<String> insecureRegistries,
    Duration deadline,
    BuildMode defaultMode,
    String dependencyCacheClaim,
    Duration pushDeadline) {

  public static final int DEFAULT_CONCURRENCY = 5;

  /**
   * A source layer, a config and a manifest are a few KiB; a registry that takes longer than this for one of them
   * is failing, and the Function says so while its running version stays.
   */
  public static final Duration DEFAULT_PUSH_DEADLINE = Duration.ofSeconds(60);

  /**
   * How long an install Job may run before Kubernetes stops it ({@code activeDeadlineSeconds}). Installs here take 5
   * to 10 s; 20 minutes leaves room for large dependency trees on a slow mirror, and stops an install whose script
   * never ends from holding one of the cluster's build slots for good.
   */
  public static final Duration DEFAULT_DEADLINE = Duration.ofMinutes(20);

  /**
   * Plain language images: gitfn's images bring their own runtime server, so any image with the language and
   * its package manager ({@code npm}, {@code python3 -m pip}) will do. Debian-based, so packages with native code
   * install from their glibc wheels and builds.
   */
  public static final Map<FunctionRuntime, String> DEFAULT_BASE_IMAGES = Arrays.stream(FunctionRuntime.values())
      .collect(Collectors.toUnmodifiableMap(runtime -> runtime, BuildSettings::defaultBaseImage));

  /** Docker Hub's official image of the runtime's language version: {@code node:24-bookworm-slim}, {@code python:3.12-slim-bookworm}. */
  static String defaultBaseImage(FunctionRuntime runtime) {
    return runtime.isNodejs()
        ? "docker.io/library/node:" + runtime.version() + "-bookworm-slim"
        : "docker.io/library/python:" + runtime.version() + "-slim-bookworm";
  }

  /** Kyma's name for the propagated registry Secret (§4.4). */
  public static final String DEFAULT_REGISTRY_SECRET = "serverless-registry-config-default";

  public BuildSettings {
    requireNonBlank(registry, "registry");
    Objects.requireNonNull(builder, "builder");
    requireNonBlank(registrySecret, "registrySecret");
    Map<FunctionRuntime, String> images = new EnumMap<>(FunctionRuntime.class);
    images.putAll(Objects.requireNonNull(baseImages, "baseImages"));
    for (FunctionRuntime runtime : FunctionRuntime.values()) {
      requireNonBlank(images.get(runtime), "baseImages[" + runtime + "]");
    }
    baseImages = Map.copyOf(images);
    if (packageRegistrySecret != null && packageRegistrySecret.isBlank()) {
      packageRegistrySecret = null;
    }
    if (!BuildProfiles.NAMES.contains(buildProfile)) {
      throw new IllegalArgumentException(
          "buildProfile `" + buildProfile + "` is not one of " + String.join(", ", BuildProfiles.NAMES));
    }
    podAnnotations = Map.copyOf(Objects.requireNonNull(podAnnotations, "podAnnotations"));
    if (concurrency < 1) {
      throw new IllegalArgumentException("concurrency must be at least 1, not " + concurrency);
    }
    Objects.requireNonNull(runtimes, "runtimes");
    registry = registry.endsWith("/") ? registry.substring(0, registry.length() - 1) : registry;
    insecureRegistries = Objects.requireNonNull(insecureRegistries, "insecureRegistries").stream()
        .map(host -> host.strip().toLowerCase(Locale.ROOT))
        .collect(Collectors.toUnmodifiableSet());
    if (deadline == null || deadline.toSeconds() < 1) {
      throw new IllegalArgumentException("the build deadline must be at least 1s, not " + deadline);
    }
    Objects.requireNonNull(defaultMode, "defaultMode");
    if (pushDeadline == null || pushDeadline.toMillis() < 100) {
      throw new IllegalArgumentException("the push deadline must be at least 100ms, not " + pushDeadline);
    }
    if (dependencyCacheClaim != null && dependencyCacheClaim.isBlank()) {
      dependencyCacheClaim = null;
    }
    if (dependencyCacheClaim != null && !KubernetesNames.isDns1123Subdomain(dependencyCacheClaim)) {
      throw new IllegalArgumentException("dependency cache claim `" + dependencyCacheClaim + "` is not a"
          + " PersistentVolumeClaim name (lower-case letters, digits, '-' and '.', at most 253 characters)");
    }
    for (String host : insecureRegistries) {
      if (host.isEmpty() || host.contains("/")) {
        throw new IllegalArgumentException(
            "insecure registry `" + host + "` is not a host[:port] such as registry.local:5000");
      }
    }
  }

  /** Settings with the runtimes of gitfn's jar, as the controller's flags make them. */
  public BuildSettings(String registry, ImageBuilder builder, Map<FunctionRuntime, String> baseImages,
      String registrySecret, String packageRegistrySecret, String buildProfile, Map<String, String> podAnnotations,
      int concurrency, Set<String> insecureRegistries) {
    this(registry, builder, baseImages, registrySecret, packageRegistrySecret, buildProfile, podAnnotations,
        concurrency, RuntimeSources.bundled(), insecureRegistries, DEFAULT_DEADLINE, BuildMode.IMAGE, null,
        DEFAULT_PUSH_DEADLINE);
  }

  /**
   * The in-cluster registry, the layered builder, the language base images, Kyma's default build profile and gitfn's
   * runtimes.
   * No registry is insecure: a plain-HTTP registry, the in-cluster one included, must be listed.
   */
  public static BuildSettings defaults() {
    return new BuildSettings("registry.local:5000", ImageBuilder.of(ImageBuilder.DEFAULT_TOOL), DEFAULT_BASE_IMAGES,
        DEFAULT_REGISTRY_SECRET, null, BuildProfiles.DEFAULT, Map.of(), DEFAULT_CONCURRENCY, Set.of());
  }

  /** The base image a runtime builds on when the Function does not override it. */
  public String baseImage(FunctionRuntime runtime) {
    return baseImages.get(runtime);
  }

  /** The host[:port] images are pushed to: the registry setting without its path. */
  public String registryHost() {
    int slash = registry.indexOf('/');
    return (slash < 0 ? registry : registry.substring(0, slash)).toLowerCase(Locale.ROOT);
  }

  /** True when the builder may reach {@code host} (host[:port]) over plain HTTP or without verifying TLS. */
  public boolean insecure(String host) {
    return host != null && insecureRegistries.contains(host.toLowerCase(Locale.ROOT));
  }

  public BuildSettings withRegistry(String registry) {
    return new BuildSettings(registry, builder, baseImages, registrySecret, packageRegistrySecret, buildProfile,
        podAnnotations, concurrency, runtimes, insecureRegistries, deadline, defaultMode,
        dependencyCacheClaim, pushDeadline);
  }

  public BuildSettings withBuilder(ImageBuilder other) {
    return new BuildSettings(registry, other, baseImages, registrySecret, packageRegistrySecret, buildProfile,
        podAnnotations, concurrency, runtimes, insecureRegistries, deadline, defaultMode,
        dependencyCacheClaim, pushDeadline);
  }

  public BuildSettings withInsecureRegistries(Set<String> hosts) {
    return new BuildSettings(registry, builder, baseImages, registrySecret, packageRegistrySecret, buildProfile,
        podAnnotations, concurrency, runtimes, hosts, deadline, defaultMode, dependencyCacheClaim, pushDeadline);
  }

  public BuildSettings withPackageRegistrySecret(String secret) {
    return new BuildSettings(registry, builder, baseImages, registrySecret, secret, buildProfile, podAnnotations,
        concurrency, runtimes, insecureRegistries, deadline, defaultMode, dependencyCacheClaim, pushDeadline);
  }

  public BuildSettings withBaseImage(FunctionRuntime runtime, String image) {
    Map<FunctionRuntime, String> images = new EnumMap<>(baseImages);
    images.put(runtime, image);
    return new BuildSettings(registry, builder, images, registrySecret, packageRegistrySecret, buildProfile,
        podAnnotations, concurrency, runtimes, insecureRegistries, deadline, defaultMode,
        dependencyCacheClaim, pushDeadline);
  }

  public BuildSettings withPodAnnotations(Map<String, String> annotations) {
    return new BuildSettings(registry, builder, baseImages, registrySecret, packageRegistrySecret, buildProfile,
        annotations, concurrency, runtimes, insecureRegistries, deadline, defaultMode,
        dependencyCacheClaim, pushDeadline);
  }

  public BuildSettings withConcurrency(int limit) {
    return new BuildSettings(registry, builder, baseImages, registrySecret, packageRegistrySecret, buildProfile,
        podAnnotations, limit, runtimes, insecureRegistries, deadline, defaultMode, dependencyCacheClaim, pushDeadline);
  }

  public BuildSettings withDeadline(Duration limit) {
    return new BuildSettings(registry, builder, baseImages, registrySecret, packageRegistrySecret, buildProfile,
        podAnnotations, concurrency, runtimes, insecureRegistries, limit, defaultMode,
        dependencyCacheClaim, pushDeadline);
  }

  public BuildSettings withDefaultMode(BuildMode mode) {
    return new BuildSettings(registry, builder, baseImages, registrySecret, packageRegistrySecret, buildProfile,
        podAnnotations, concurrency, runtimes, insecureRegistries, deadline, mode, dependencyCacheClaim, pushDeadline);
  }

  public BuildSettings withDependencyCacheClaim(String claim) {
    return new BuildSettings(registry, builder, baseImages, registrySecret, packageRegistrySecret, buildProfile,
        podAnnotations, concurrency, runtimes, insecureRegistries, deadline, defaultMode, claim, pushDeadline);
  }

  public BuildSettings withPushDeadline(Duration limit) {
    return new BuildSettings(registry, builder, baseImages, registrySecret, packageRegistrySecret, buildProfile,
        podAnnotations, concurrency, runtimes, insecureRegistries, deadline, defaultMode, dependencyCacheClaim, limit);
  }

  /**
   * The mode a Function runs in: its {@code gitfn.io/build-mode} annotation, else {@link #defaultMode}.
   *
   * @throws IllegalArgumentException when the annotation names no mode ({@code FunctionRules} reports it first)
   */
  public BuildMode modeOf(Function fn) {
    return BuildMode.requested(fn).orElse(defaultMode);
  }

  /** Settings that build with another runtime server, for tests of what a runtime change does. */
  public BuildSettings withRuntime(FunctionRuntime runtime, RuntimeSource source) {
    return new BuildSettings(registry, builder, baseImages, registrySecret, packageRegistrySecret, buildProfile,
        podAnnotations, concurrency, runtimes.with(runtime, source), insecureRegistries, deadline, defaultMode,
        dependencyCacheClaim, pushDeadline);
  }

  private static void requireNonBlank(String value, String name) {
    if (value == null || value.isBlank()) {
      throw new IllegalArgumentException(name + " must not be blank");
    }
  }
}
