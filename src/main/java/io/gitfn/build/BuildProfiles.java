package io.gitfn.build;

import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.fabric8.kubernetes.api.model.ResourceRequirementsBuilder;
import io.gitfn.api.function.Function;
import io.gitfn.workload.ResourcePresets;
import io.gitfn.workload.ResourcePresets.Preset;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** The build Job's resource presets, with Kyma Serverless 1.11.1's figures (§4.5). */
public final class BuildProfiles {

  public static final String DEFAULT = "normal";

  private static final ResourcePresets PRESETS = ResourcePresets.of("build",
      new Preset("local-dev", "200m", "200Mi", "400m", "400Mi"),
      new Preset("slow", "200m", "200Mi", "700m", "700Mi"),
      new Preset("normal", "500m", "700Mi", "1100m", "1100Mi"),
      new Preset("fast", "900m", "1100Mi", "1700m", "1100Mi"));

  public static final List<String> NAMES = PRESETS.names();

  private BuildProfiles() {
  }

  /**
   * Kyma's order (§1.6): the build profile, else explicit build resources, else the default profile. A build
   * container always has CPU and memory limits: explicit resources without one get the default profile's, raised
   * to the request when that is higher (the validator caps what may be asked for).
   */
  public static ResourceRequirements forFunction(Function fn, String defaultProfile) {
    var config = fn.getSpec().getResourceConfiguration();
    ResourceRequirements resources = PRESETS.resolve(config == null ? null : config.getBuild(), defaultProfile);
    ResourceRequirements fallback = PRESETS.resolve(null, defaultProfile);
    Map<String, Quantity> limits = new TreeMap<>(resources.getLimits() == null ? Map.of() : resources.getLimits());
    Map<String, Quantity> requests = resources.getRequests() == null ? Map.of() : resources.getRequests();
    for (String resource : List.of("cpu", "memory")) {
      if (!limits.containsKey(resource)) {
        Quantity limit = fallback.getLimits().get(resource);
        Quantity request = requests.get(resource);
        limits.put(resource, request != null && larger(request, limit) ? request : limit);
      }
    }
    return new ResourceRequirementsBuilder(resources).withLimits(limits).build();
  }

  private static boolean larger(Quantity a, Quantity b) {
    try {
      return Quantity.getAmountInBytes(a).compareTo(Quantity.getAmountInBytes(b)) > 0;
    } catch (RuntimeException e) {
      return false; // not a quantity: the validator has said so, and the API server refuses the Job
    }
  }
}
