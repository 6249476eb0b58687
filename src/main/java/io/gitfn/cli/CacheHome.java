package io.gitfn.cli;

import java.nio.file.Path;

/** Where gitfn's commands keep their caches unless told otherwise: under the XDG cache directory, as its spec says. */
final class CacheHome {

  private CacheHome() {}

  /** {@code $XDG_CACHE_HOME/gitfn/<name>}, or {@code ~/.cache/gitfn/<name>} when that is unset or blank. */
  static Path of(String name) {
    String xdg = System.getenv("XDG_CACHE_HOME");
    Path base = xdg == null || xdg.isBlank() ? Path.of(System.getProperty("user.home"), ".cache") : Path.of(xdg);
    return base.resolve("gitfn").resolve(name);
  }
}
