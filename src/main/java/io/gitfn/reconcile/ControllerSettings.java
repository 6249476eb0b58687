package io.gitfn.reconcile;

import java.time.Duration;
import java.util.Set;

/**
 * What an operator configures once for the whole controller.
 *
 * @param knownHosts SSH host keys trusted for every repository whose Secret brings none ({@code known_hosts} format)
 * @param allowedTargetNamespaces namespaces other than its own that a FunctionRepository may write Functions into
 * @param functionSourceInterval how often the Git source of a Function is checked without a webhook
 * @param registryLookup whether, and how, the registry is asked for an image before it is built
 */
public record ControllerSettings(String knownHosts, Set<String> allowedTargetNamespaces,
    Duration functionSourceInterval, RegistryLookupSettings registryLookup) {

  /** Kyma checks every 5 minutes, which its users find too slow (kyma#12527); a check costs one ls-remote. */
  public static final Duration DEFAULT_FUNCTION_SOURCE_INTERVAL = Duration.ofMinutes(1);

  public ControllerSettings {
    knownHosts = knownHosts == null ? "" : knownHosts;
    allowedTargetNamespaces = Set.copyOf(allowedTargetNamespaces);
    if (functionSourceInterval == null || functionSourceInterval.isNegative() || functionSourceInterval.isZero()) {
      throw new IllegalArgumentException("functionSourceInterval must be positive, was " + functionSourceInterval);
    }
    registryLookup = registryLookup == null ? RegistryLookupSettings.disabled() : registryLookup;
  }

  public static ControllerSettings defaults() {
    return new ControllerSettings("", Set.of(), DEFAULT_FUNCTION_SOURCE_INTERVAL, RegistryLookupSettings.disabled());
  }

  public ControllerSettings withFunctionSourceInterval(Duration interval) {
    return new ControllerSettings(knownHosts, allowedTargetNamespaces, interval, registryLookup);
  }

  public ControllerSettings withRegistryLookup(RegistryLookupSettings lookup) {
    return new ControllerSettings(knownHosts, allowedTargetNamespaces, functionSourceInterval, lookup);
  }
}
