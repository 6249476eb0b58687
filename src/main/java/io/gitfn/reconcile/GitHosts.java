package io.gitfn.reconcile;

import java.util.List;
import java.util.Locale;

/**
 * The hosts the controller may fetch from ({@code --allowed-git-host}): a tenant's Git URL may name any host, and
 * the controller would connect to it from inside the cluster. A pattern is a host name or {@code *.domain} for
 * every host below that domain; {@code file} allows local repositories. No pattern allows every host.
 */
public record GitHosts(List<String> patterns) {

  public static final GitHosts ANY = new GitHosts(List.of());

  public GitHosts {
    patterns = patterns.stream().map(p -> p.strip().toLowerCase(Locale.ROOT)).toList();
    for (String pattern : patterns) {
      String name = pattern.startsWith("*.") ? pattern.substring(2) : pattern;
      if (name.isEmpty() || !name.matches("[a-z0-9]([a-z0-9.-]*[a-z0-9])?")) {
        throw new IllegalArgumentException("--allowed-git-host `" + pattern + "` is not a host name or *.domain");
      }
    }
  }

  public boolean allows(String host) {
    if (patterns.isEmpty()) {
      return true;
    }
    String h = host.toLowerCase(Locale.ROOT);
    return patterns.stream().anyMatch(p -> p.startsWith("*.") ? h.endsWith(p.substring(1)) : h.equals(p));
  }

  @Override
  public String toString() {
    return patterns.isEmpty() ? "any host" : String.join(", ", patterns);
  }
}
