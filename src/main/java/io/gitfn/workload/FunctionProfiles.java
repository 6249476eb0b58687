package io.gitfn.workload;

import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.gitfn.api.function.Function;
import io.gitfn.workload.ResourcePresets.Preset;
import java.util.List;

/** The runtime Pod's resource presets, with Kyma Serverless 1.11.1's figures (§4.5). */
public final class FunctionProfiles {

  public static final String DEFAULT = "L";

  private static final ResourcePresets PRESETS = ResourcePresets.of("function",
      new Preset("XS", "50m", "64Mi", "150m", "256Mi"),
      new Preset("S", "100m", "128Mi", "200m", "256Mi"),
      new Preset("M", "200m", "256Mi", "400m", "512Mi"),
      new Preset("L", "400m", "512Mi", "800m", "1024Mi"),
      new Preset("XL", "800m", "1024Mi", "1600m", "2048Mi"));

  public static final List<String> NAMES = PRESETS.names();

  private FunctionProfiles() {
  }

  /** Kyma's order (§1.6): the profile, else explicit resources, else the default profile. */
  public static ResourceRequirements forFunction(Function fn, String defaultProfile) {
    var config = fn.getSpec().getResourceConfiguration();
    return PRESETS.resolve(config == null ? null : config.getFunction(), defaultProfile);
  }
}
