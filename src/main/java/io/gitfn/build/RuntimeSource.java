package io.gitfn.build;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * The files of one of gitfn's runtime servers, as they go into a build context: sources and lock files only,
 * never installed packages (the Dockerfile installs those).
 *
 * <p>A ConfigMap key may not contain {@code /}, so each file travels under a flat key
 * ({@code runtime.lib.app.mjs}) and the build Job's volume {@code items} put it back at its path
 * ({@code runtime/lib/app.mjs}).
 *
 * @param files path below the runtime's folder, with {@code /} between segments, to content
 */
public record RuntimeSource(Map<String, String> files) {

  /** The folder of the build context that holds the runtime, and the prefix of its ConfigMap keys. */
  public static final String CONTEXT_DIR = "runtime";

  private static final Pattern PATH = Pattern.compile("[A-Za-z0-9_.-]+(/[A-Za-z0-9_.-]+)*");
  // Installed packages are the Dockerfile's job; carrying them would also blow the ConfigMap limit.
  private static final Set<String> INSTALLED = Set.of("node_modules", "site", "packages", "__pycache__");

  public RuntimeSource {
    Objects.requireNonNull(files, "files");
    if (files.isEmpty()) {
      throw new IllegalArgumentException("a runtime has at least one file");
    }
    Set<String> keys = new HashSet<>();
    for (Map.Entry<String, String> file : files.entrySet()) {
      String path = file.getKey();
      Objects.requireNonNull(file.getValue(), path);
      if (!PATH.matcher(path).matches() || Set.of(path.split("/")).contains("..")) {
        throw new IllegalArgumentException("`" + path + "` is not a relative path of plain names");
      }
      for (String segment : path.split("/")) {
        if (INSTALLED.contains(segment)) {
          throw new IllegalArgumentException("`" + path + "` is an installed package, not a runtime source");
        }
      }
      if (!keys.add(contextKey(path))) {
        throw new IllegalArgumentException("`" + path + "` has the same ConfigMap key as another file");
      }
    }
    files = Map.copyOf(files);
  }

  /** The file's key in the context ConfigMap: {@code lib/app.mjs} is {@code runtime.lib.app.mjs}. */
  public static String contextKey(String path) {
    return CONTEXT_DIR + "." + path.replace('/', '.');
  }

  /** The file's path in the build context: {@code lib/app.mjs} is {@code runtime/lib/app.mjs}. */
  public static String contextPath(String path) {
    return CONTEXT_DIR + "/" + path;
  }

  /** SHA-256 over the paths and contents, in path order: part of every content key built on this runtime. */
  public String digest() {
    MessageDigest sha256 = ContentKey.sha256();
    for (Map.Entry<String, String> file : new TreeMap<>(files).entrySet()) {
      ContentKey.field(sha256, file.getKey());
      ContentKey.field(sha256, file.getValue());
    }
    return HexFormat.of().formatHex(sha256.digest());
  }

  /** Bytes the runtime adds to a context ConfigMap, keys and values in UTF-8. */
  public long size() {
    long size = 0;
    for (Map.Entry<String, String> file : files.entrySet()) {
      size += contextKey(file.getKey()).getBytes(StandardCharsets.UTF_8).length;
      size += file.getValue().getBytes(StandardCharsets.UTF_8).length;
    }
    return size;
  }
}
