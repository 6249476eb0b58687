package io.gitfn.workload;

import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.gitfn.api.function.Function;
import io.gitfn.workload.ResourcePresets.Preset;
import java.util.List;

/**
 * The runtime Pod's resource profiles: Kyma's names, and Kyma Serverless 1.11.1's figures (§4.5), which are also
 * those of Kyma's current {@code resourcesConfiguration}. An operator may give other figures
 * ({@link FunctionResourcesConfig}); the names stay Kyma's, as Functions name them.
 */
public final class FunctionProfiles {

  public static final String DEFAULT = "L";

  /** Kyma's figures. */
  public static final ResourcePresets KYMA = ResourcePresets.of("function",
      new Preset("XS", "50m", "64Mi", "150m", "256Mi"),
      new Preset("S", "100m", "128Mi", "200m", "256Mi"),
      new Preset("M", "200m", "256Mi", "400m", "512Mi"),
      new Preset("L", "400m", "512Mi", "800m", "1024Mi"),
      new Preset("XL", "800m", "1024Mi", "1600m", "2048Mi"));

  public static final List<String> NAMES = KYMA.names();

  private FunctionProfiles() {
  }

  /** Kyma's order (§1.6): the profile, else explicit resources, else the default profile. */
  public static ResourceRequirements forFunction(Function fn, ResourcePresets presets, String defaultProfile) {
    var config = fn.getSpec().getResourceConfiguration();
    return presets.resolve(config == null ? null : config.getFunction(), defaultProfile);
  }
}
