package io.gitfn.workload;

import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.fabric8.kubernetes.api.model.ResourceRequirementsBuilder;
import io.gitfn.api.function.Function;
import io.gitfn.api.function.ProfileOrResources;
import java.util.List;
import java.util.Map;

/** The runtime Pod's resource presets, with Kyma Serverless 1.11.1's figures (§4.5). */
public final class FunctionProfiles {

  public static final String DEFAULT = "L";
  public static final List<String> NAMES = List.of("XS", "S", "M", "L", "XL");

  private static final Map<String, ResourceRequirements> PRESETS = Map.of(
      "XS", requirements("50m", "64Mi", "150m", "256Mi"),
      "S", requirements("100m", "128Mi", "200m", "256Mi"),
      "M", requirements("200m", "256Mi", "400m", "512Mi"),
      "L", requirements("400m", "512Mi", "800m", "1024Mi"),
      "XL", requirements("800m", "1024Mi", "1600m", "2048Mi"));

  private FunctionProfiles() {
  }

  /** Kyma's order (§1.6): the profile, else explicit resources, else the default profile. */
  public static ResourceRequirements forFunction(Function fn, String defaultProfile) {
    var config = fn.getSpec().getResourceConfiguration();
    ProfileOrResources function = config == null ? null : config.getFunction();
    if (function != null && function.getProfile() == null && function.getResources() != null) {
      return function.getResources();
    }
    String profile = function != null && function.getProfile() != null ? function.getProfile() : defaultProfile;
    ResourceRequirements preset = PRESETS.get(profile);
    if (preset == null) {
      throw new IllegalArgumentException(
          "function profile `" + profile + "` is not one of " + String.join(", ", NAMES));
    }
    return new ResourceRequirementsBuilder(preset).build();
  }

  private static ResourceRequirements requirements(String cpuRequest, String memoryRequest, String cpuLimit,
      String memoryLimit) {
    return new ResourceRequirementsBuilder()
        .addToRequests("cpu", new Quantity(cpuRequest))
        .addToRequests("memory", new Quantity(memoryRequest))
        .addToLimits("cpu", new Quantity(cpuLimit))
        .addToLimits("memory", new Quantity(memoryLimit))
        .build();
  }
}
