package io.gitfn.build;

import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.gitfn.api.function.Function;
import io.gitfn.workload.ResourcePresets;
import io.gitfn.workload.ResourcePresets.Preset;
import java.util.List;

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

  /** Kyma's order (§1.6): the build profile, else explicit build resources, else the default profile. */
  public static ResourceRequirements forFunction(Function fn, String defaultProfile) {
    var config = fn.getSpec().getResourceConfiguration();
    return PRESETS.resolve(config == null ? null : config.getBuild(), defaultProfile);
  }
}
