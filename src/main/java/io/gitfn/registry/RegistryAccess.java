package io.gitfn.registry;

import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * How gitfn reaches registries: the user and password for a registry host, if any, and the hosts spoken to over
 * plain HTTP or with any certificate.
 */
public record RegistryAccess(Function<String, Optional<Credentials>> credentials, Set<String> insecureHosts) {

  /** A user and password, or a token as the password. Never logged. */
  public record Credentials(String username, String password) {
    @Override
    public String toString() {
      return "Credentials[username=" + username + ", password=***]";
    }
  }

  /** No credentials, and plain HTTP for the hosts named. */
  public static RegistryAccess anonymous(Set<String> insecureHosts) {
    return new RegistryAccess(host -> Optional.empty(), Set.copyOf(insecureHosts));
  }

  boolean insecure(String host) {
    return insecureHosts.contains(host);
  }
}
