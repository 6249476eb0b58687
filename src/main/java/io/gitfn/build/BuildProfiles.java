package io.gitfn.build;

import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.fabric8.kubernetes.api.model.ResourceRequirementsBuilder;
import io.gitfn.api.function.Function;
import io.gitfn.api.function.ProfileOrResources;
import java.util.List;
import java.util.Map;

/** The build Job's resource presets, with Kyma Serverless 1.11.1's figures (§4.5). */
public final class BuildProfiles {

  public static final String DEFAULT = "normal";
  public static final List<String> NAMES = List.of("local-dev", "slow", "normal", "fast");

  private static final Map<String, ResourceRequirements> PRESETS = Map.of(
      "local-dev", requirements("200m", "200Mi", "400m", "400Mi"),
      "slow", requirements("200m", "200Mi", "700m", "700Mi"),
      "normal", requirements("500m", "700Mi", "1100m", "1100Mi"),
      "fast", requirements("900m", "1100Mi", "1700m", "1100Mi"));

  private BuildProfiles() {
  }

  /** The Function's explicit build resources, else its build profile, else the given default profile. */
  public static ResourceRequirements forFunction(Function fn, String defaultProfile) {
    var config = fn.getSpec().getResourceConfiguration();
    ProfileOrResources build = config == null ? null : config.getBuild();
    if (build != null && build.getResources() != null) {
      return build.getResources();
    }
    String profile = build != null && build.getProfile() != null ? build.getProfile() : defaultProfile;
    ResourceRequirements preset = PRESETS.get(profile);
    if (preset == null) {
      throw new IllegalArgumentException("build profile `" + profile + "` is not one of " + String.join(", ", NAMES));
    }
    return new ResourceRequirementsBuilder(preset).build();
  }

  static ResourceRequirements requirements(String cpuRequest, String memoryRequest, String cpuLimit,
      String memoryLimit) {
    return new ResourceRequirementsBuilder()
        .addToRequests("cpu", new Quantity(cpuRequest))
        .addToRequests("memory", new Quantity(memoryRequest))
        .addToLimits("cpu", new Quantity(cpuLimit))
        .addToLimits("memory", new Quantity(memoryLimit))
        .build();
  }
}
