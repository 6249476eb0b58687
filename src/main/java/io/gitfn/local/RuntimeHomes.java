package io.gitfn.local;

import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.FileSystem;
import java.nio.file.FileSystemAlreadyExistsException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.EnumMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * gitfn's runtime servers, copied out of the jar into the cache and given their packages once: {@code npm ci} for
 * Node.js, {@code pip install --target site} for Python. The folder is named after a hash of the files, so a new
 * gitfn version gets a fresh one and an unchanged one is reused across runs.
 */
final class RuntimeHomes {

  private static final String RESOURCES = "/io/gitfn/runtimes/";
  // Packages installed in place while developing must not be copied or hashed.
  private static final Set<String> SKIPPED = Set.of("node_modules", "site", "__pycache__", ".pytest_cache");

  private final Path cache;
  private final Map<Language, Path> homes = new EnumMap<>(Language.class);

  RuntimeHomes(Path cache) {
    this.cache = cache;
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
    try {
      URL url = RuntimeHomes.class.getResource(RESOURCES + language.folder);
      if (url == null) {
        throw new LocalException("the " + language.folder + " runtime is missing from gitfn's jar");
      }
      URI uri = url.toURI();
      if (uri.getScheme().equals("jar")) {
        try (FileSystem jar = openJar(uri)) {
          return install(language, jar.provider().getPath(uri));
        } catch (FileSystemAlreadyExistsException e) {
          return install(language, FileSystems.getFileSystem(uri).provider().getPath(uri));
        }
      }
      return install(language, Path.of(uri));
    } catch (IOException | URISyntaxException e) {
      throw new LocalException("cannot read the " + language.folder + " runtime from gitfn's jar: " + e.getMessage());
    }
  }

  private static FileSystem openJar(URI uri) throws IOException {
    return FileSystems.newFileSystem(uri, Map.of());
  }

  private Path install(Language language, Path source) throws IOException, LocalException {
    List<Path> files = files(source);
    Path target = cache.resolve("runtimes").resolve(language.folder + "-" + hash(source, files));
    Installs.ensure(target, folder -> {
      for (Path file : files) {
        Path copy = folder.resolve(source.relativize(file).toString());
        Files.createDirectories(copy.getParent());
        Files.copy(file, copy);
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

  private static List<Path> files(Path source) throws IOException {
    try (Stream<Path> walk = Files.walk(source)) {
      return walk.filter(Files::isRegularFile)
          .filter(p -> source.relativize(p).toString().isEmpty()
              || Stream.of(source.relativize(p).toString().split("/")).noneMatch(SKIPPED::contains))
          .sorted().toList();
    }
  }

  private static String hash(Path source, List<Path> files) throws IOException {
    try {
      MessageDigest sha = MessageDigest.getInstance("SHA-256");
      for (Path file : files) {
        sha.update(source.relativize(file).toString().getBytes(java.nio.charset.StandardCharsets.UTF_8));
        sha.update((byte) 0);
        sha.update(Files.readAllBytes(file));
        sha.update((byte) 0);
      }
      return HexFormat.of().formatHex(sha.digest()).substring(0, 16);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java platform has SHA-256", e);
    }
  }
}
