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

  /**
   * The same names with other figures for some of them, an operator's: a name this set does not have is refused, and
   * so is a request above its limit, which the API server would refuse in every Pod of that profile.
   */
  public ResourcePresets withFigures(List<Preset> figures) {
    Map<String, ResourceRequirements> changed = new LinkedHashMap<>(presets);
    for (Preset p : figures) {
      if (!presets.containsKey(p.name())) {
        throw new IllegalArgumentException(what + " profile `" + p.name() + "` is not one of "
            + String.join(", ", names()) + "; Functions name these, so other names cannot be added");
      }
      ResourceRequirements resources = of(what, p).presets.get(p.name());
      for (String resource : List.of("cpu", "memory")) {
        Quantity request = resources.getRequests().get(resource);
        Quantity limit = resources.getLimits().get(resource);
        if (request.getNumericalAmount().compareTo(limit.getNumericalAmount()) > 0) {
          throw new IllegalArgumentException(what + " profile `" + p.name() + "`: the " + resource + " request "
              + request + " is above its limit " + limit);
        }
      }
      changed.put(p.name(), resources);
    }
    return new ResourcePresets(what, changed);
  }

  /** The figures of one preset, as the Pod gets them. */
  public ResourceRequirements get(String name) {
    ResourceRequirements preset = presets.get(name);
    if (preset == null) {
      throw new IllegalArgumentException(what + " profile `" + name + "` is not one of " + String.join(", ", names()));
    }
    return new ResourceRequirementsBuilder(preset).build();
  }

  public List<String> names() {
    return List.copyOf(presets.keySet());
  }

  /** The resources a Function's choice stands for; a copy the caller may change. */
  public ResourceRequirements resolve(ProfileOrResources choice, String defaultProfile) {
    if (choice != null && choice.getProfile() == null && choice.getResources() != null) {
      return choice.getResources();
    }
    return get(choice != null && choice.getProfile() != null ? choice.getProfile() : defaultProfile);
  }
}
