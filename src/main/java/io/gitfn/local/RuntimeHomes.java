package io.gitfn.local;

import io.gitfn.api.function.FunctionRuntime;
import io.gitfn.build.RuntimeSource;
import io.gitfn.build.RuntimeSources;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * gitfn's runtime servers, written out of the jar into the cache and given their packages once: {@code npm ci} for
 * Node.js, {@code pip install --target site} for Python. They are the very files the build Jobs' images get
 * ({@link RuntimeSources#bundled()}), and the folder is named after their digest, so a new gitfn version gets a
 * fresh one and an unchanged one is reused across runs.
 */
final class RuntimeHomes {

  private final Path cache;
  private final RuntimeSources sources;
  private final Map<Language, Path> homes = new EnumMap<>(Language.class);

  RuntimeHomes(Path cache) {
    this(cache, RuntimeSources.bundled());
  }

  RuntimeHomes(Path cache, RuntimeSources sources) {
    this.cache = cache;
    this.sources = sources;
  }

  /** The runtime's folder, ready to start Functions from; made on first use. */
  synchronized Path home(Language language) throws LocalException {
    Path known = homes.get(language);
    if (known != null) {
      return known;
    }
    Path home = install(language);
    homes.put(language, home);
    return home;
  }

  private Path install(Language language) throws LocalException {
    // One Node.js runtime serves every nodejs runtime alike: the interpreter is the version.
    RuntimeSource source =
        sources.of(language == Language.NODEJS ? FunctionRuntime.DEFAULT : FunctionRuntime.PYTHON312);
    Path target = cache.resolve("runtimes").resolve(language.folder + "-" + source.digest().substring(0, 16));
    Installs.ensure(target, folder -> {
      for (Map.Entry<String, String> file : source.files().entrySet()) {
        Path copy = folder.resolve(file.getKey());
        Files.createDirectories(copy.getParent());
        Files.writeString(copy, file.getValue(), StandardCharsets.UTF_8);
      }
      if (language == Language.NODEJS) {
        Commands.run(List.of("npm", "ci", "--omit=dev", "--no-audit", "--no-fund", "--loglevel=error"), folder);
      } else {
        Commands.run(List.of("python3", "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
            "--target", folder.resolve("site").toString(), "-r", "requirements.txt"), folder);
      }
    });
    return target;
  }
}
