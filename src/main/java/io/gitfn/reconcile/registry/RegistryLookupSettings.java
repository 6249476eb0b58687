package io.gitfn.reconcile.registry;

import java.time.Duration;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Whether the controller asks the registry for an image before it builds one, and how.
 *
 * @param enabled off by default: the Function's history and its build Jobs already say which images exist, and
 *     the registry's answer only saves a build after both are lost
 * @param insecureRegistries registry hosts, as host[:port], asked over plain HTTP instead of HTTPS; a token
 *     realm on plain HTTP is asked only when its host[:port] is listed too
 * @param timeout how long one lookup may take in all, token request included; past it the lookup says
 *     "unknown" and the controller builds
 */
public record RegistryLookupSettings(boolean enabled, Set<String> insecureRegistries, Duration timeout) {

  public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(5);

  public RegistryLookupSettings {
    insecureRegistries = Objects.requireNonNull(insecureRegistries, "insecureRegistries").stream()
        .map(host -> host.strip().toLowerCase(Locale.ROOT))
        .collect(Collectors.toUnmodifiableSet());
    for (String host : insecureRegistries) {
      if (host.isEmpty() || host.contains("/")) {
        throw new IllegalArgumentException(
            "insecure registry `" + host + "` is not a host[:port] such as registry.local:5000");
      }
    }
    if (timeout == null || timeout.isNegative() || timeout.isZero()) {
      throw new IllegalArgumentException("the registry lookup's timeout must be positive, was " + timeout);
    }
  }

  public static RegistryLookupSettings disabled() {
    return new RegistryLookupSettings(false, Set.of(), DEFAULT_TIMEOUT);
  }

  public static RegistryLookupSettings enabled(Set<String> insecureRegistries) {
    return new RegistryLookupSettings(true, insecureRegistries, DEFAULT_TIMEOUT);
  }

  public RegistryLookupSettings withTimeout(Duration limit) {
    return new RegistryLookupSettings(enabled, insecureRegistries, limit);
  }

  /** True when {@code host} (host[:port]) is asked over plain HTTP. */
  boolean insecure(String host) {
    return insecureRegistries.contains(host.toLowerCase(Locale.ROOT));
  }
}
