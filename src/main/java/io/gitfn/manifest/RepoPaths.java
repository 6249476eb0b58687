package io.gitfn.manifest;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Optional;

/** Paths inside a tree: {@code /}-separated, relative to its root, with no {@code .}, {@code ..} or empty parts. */
final class RepoPaths {

  private RepoPaths() {}

  /** {@code path} with {@code .} and {@code ..} resolved, or empty when it climbs above the root. */
  static Optional<String> normalize(String path) {
    Deque<String> parts = new ArrayDeque<>();
    for (String part : path.replace('\\', '/').split("/")) {
      if (part.isEmpty() || part.equals(".")) {
        continue;
      }
      if (part.equals("..")) {
        if (parts.isEmpty()) {
          return Optional.empty();
        }
        parts.removeLast();
      } else {
        parts.addLast(part);
      }
    }
    return Optional.of(String.join("/", parts));
  }

  static String join(String folder, String path) {
    return folder.isEmpty() ? path : path.isEmpty() ? folder : folder + "/" + path;
  }

  static String parent(String path) {
    int slash = path.lastIndexOf('/');
    return slash < 0 ? "" : path.substring(0, slash);
  }

  static String name(String path) {
    return path.substring(path.lastIndexOf('/') + 1);
  }

  /** True when {@code path} is {@code folder} or inside it ({@code folder} "" is the whole tree). */
  static boolean within(String path, String folder) {
    return folder.isEmpty() || path.equals(folder) || path.startsWith(folder + "/");
  }

  /** How to name {@code folder} in a message: "." for the root. */
  static String shown(String folder) {
    return folder.isEmpty() ? "." : folder;
  }
}
