package io.gitfn.reconcile;

import java.util.Set;

/**
 * What an operator configures once for the whole controller.
 *
 * @param knownHosts SSH host keys trusted for every repository whose Secret brings none ({@code known_hosts} format)
 * @param allowedTargetNamespaces namespaces other than its own that a FunctionRepository may write Functions into
 */
public record ControllerSettings(String knownHosts, Set<String> allowedTargetNamespaces) {

  public ControllerSettings {
    knownHosts = knownHosts == null ? "" : knownHosts;
    allowedTargetNamespaces = Set.copyOf(allowedTargetNamespaces);
  }

  public static ControllerSettings defaults() {
    return new ControllerSettings("", Set.of());
  }
}
