package io.gitfn.local;

import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The environment of what {@code gitfn up} starts: a Function's process and the installers of its dependencies run
 * code from the followed repository, so they get what a program needs to run, not the user's whole environment
 * (cloud credentials, tokens, an SSH agent's socket). Installers also keep the proxy and package-registry settings
 * they need to reach the registry.
 */
final class ChildEnvironment {

  private static final Set<String> BASE = Set.of("PATH", "HOME", "USER", "LOGNAME", "LANG", "LC_ALL", "LC_CTYPE",
      "TZ", "TMPDIR", "TERM");
  private static final Set<String> NETWORK = Set.of("HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY");

  private ChildEnvironment() {}

  /** Leaves in {@code env} only what a Function's process may see of the user's environment. */
  static void forFunction(Map<String, String> env) {
    env.keySet().removeIf(name -> !BASE.contains(name));
  }

  /** Leaves in {@code env} what an installer (npm, pip) may see: a Function's share, plus proxies and registries. */
  static void forInstaller(Map<String, String> env) {
    env.keySet().removeIf(name -> {
      String upper = name.toUpperCase(Locale.ROOT);
      return !BASE.contains(name) && !NETWORK.contains(upper) && !upper.startsWith("NPM_CONFIG_")
          && !upper.startsWith("PIP_");
    });
  }
}
