package io.gitfn.workload;

import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.fabric8.kubernetes.api.model.ResourceRequirementsBuilder;
import io.gitfn.api.function.ProfileOrResources;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A named set of resource presets, Kyma's profiles (§4.5), and how a Function's {@code profile | resources}
 * choice resolves against it: the profile, else explicit resources, else the default profile (§1.6).
 */
public final class ResourcePresets {

  private final String what;
  private final Map<String, ResourceRequirements> presets;

  private ResourcePresets(String what, Map<String, ResourceRequirements> presets) {
    this.what = what;
    this.presets = presets;
  }

  /** One named preset. */
  public record Preset(String name, String cpuRequest, String memoryRequest, String cpuLimit, String memoryLimit) {}

  /** The presets of {@code what} ("function", "build"), in the order users see them listed. */
  public static ResourcePresets of(String what, Preset... presets) {
    Map<String, ResourceRequirements> resolved = new LinkedHashMap<>();
    for (Preset p : presets) {
      resolved.put(p.name(), new ResourceRequirementsBuilder()
          .addToRequests("cpu", new Quantity(p.cpuRequest()))
          .addToRequests("memory", new Quantity(p.memoryRequest()))
          .addToLimits("cpu", new Quantity(p.cpuLimit()))
          .addToLimits("memory", new Quantity(p.memoryLimit()))
          .build());
    }
    return new ResourcePresets(what, resolved);
  }

  public List<String> names() {
    return List.copyOf(presets.keySet());
  }

  /** The resources a Function's choice stands for; a copy the caller may change. */
  public ResourceRequirements resolve(ProfileOrResources choice, String defaultProfile) {
    if (choice != null && choice.getProfile() == null && choice.getResources() != null) {
      return choice.getResources();
    }
    String profile = choice != null && choice.getProfile() != null ? choice.getProfile() : defaultProfile;
    ResourceRequirements preset = presets.get(profile);
    if (preset == null) {
      throw new IllegalArgumentException(what + " profile `" + profile + "` is not one of " + String.join(", ", names()));
    }
    return new ResourceRequirementsBuilder(preset).build();
  }
}
