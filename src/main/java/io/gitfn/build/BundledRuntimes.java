package io.gitfn.build;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The runtime servers in gitfn's own jar ({@code io/gitfn/runtimes/}), read once.
 *
 * <p>This is the one class of the pure core that reads anything, and why it may: it reads resources of the
 * class's own jar, which are part of the program like the Dockerfile templates, not files of the machine, so
 * every caller of {@link BuildSettings#defaults()} (controller, render, local mode) gets the same runtime without
 * handing it in. It opens no path, socket or process ({@code PureCoreTest} still holds, and pins that only this
 * class reads resources).
 *
 * <p>The file lists say exactly what goes into an image; {@code BundledRuntimesTest} fails when a runtime file is
 * added to the resources but not here.
 */
final class BundledRuntimes {

  static final String RESOURCES = "/io/gitfn/runtimes/";

  static final List<String> NODEJS = List.of(
      "package.json", "package-lock.json", "server.mjs",
      "lib/access-log.mjs", "lib/app.mjs", "lib/event.mjs", "lib/handler.mjs", "lib/invoke.mjs",
      "lib/metrics.mjs", "lib/packages.mjs", "lib/publish.mjs", "lib/resolve-hook.mjs", "lib/settings.mjs",
      "lib/shutdown.mjs", "lib/tracer.mjs");

  static final List<String> PYTHON = List.of(
      "requirements.txt", "server.py",
      "gitfn_runtime/__init__.py", "gitfn_runtime/access_log.py", "gitfn_runtime/app.py",
      "gitfn_runtime/event.py", "gitfn_runtime/loader.py", "gitfn_runtime/metrics.py",
      "gitfn_runtime/server_packages.py", "gitfn_runtime/settings.py", "gitfn_runtime/shutdown.py",
      "gitfn_runtime/tracing.py");

  static final RuntimeSources SOURCES = new RuntimeSources(read("nodejs", NODEJS), read("python", PYTHON));

  private BundledRuntimes() {
  }

  static RuntimeSource read(String folder, List<String> paths) {
    Map<String, String> files = new LinkedHashMap<>();
    for (String path : paths) {
      String resource = RESOURCES + folder + "/" + path;
      try (InputStream in = BundledRuntimes.class.getResourceAsStream(resource)) {
        if (in == null) {
          throw new IllegalStateException(resource + " is missing from gitfn's jar");
        }
        files.put(path, new String(in.readAllBytes(), StandardCharsets.UTF_8));
      } catch (IOException e) {
        throw new UncheckedIOException("cannot read " + resource + " from gitfn's jar", e);
      }
    }
    return new RuntimeSource(files);
  }
}
