package io.gitfn.registry;

import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * How gitfn reaches registries: the user and password for a registry host, if any, and the hosts spoken to over
 * plain HTTP or with any certificate.
 */
public record RegistryAccess(Function<String, Optional<RegistryCredentials>> credentials,
    Set<String> insecureHosts) {

  /** No credentials, and plain HTTP for the hosts named. */
  public static RegistryAccess anonymous(Set<String> insecureHosts) {
    return new RegistryAccess(host -> Optional.empty(), Set.copyOf(insecureHosts));
  }

  /**
   * The credentials a Docker {@code config.json} (a {@code kubernetes.io/dockerconfigjson} Secret's one key) holds
   * for each registry, and plain HTTP for the hosts named.
   *
   * @throws IllegalArgumentException when the file is not what Docker writes; the message shows no value
   */
  public static RegistryAccess ofDockerConfig(String dockerConfigJson, Set<String> insecureHosts) {
    RegistryCredentials.fromDockerConfig(dockerConfigJson, "check.invalid"); // fails now, not at the first push
    return new RegistryAccess(host -> RegistryCredentials.fromDockerConfig(dockerConfigJson, host),
        Set.copyOf(insecureHosts));
  }

  boolean insecure(String host) {
    return insecureHosts.contains(host);
  }
}
