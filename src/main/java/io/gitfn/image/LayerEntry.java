package io.gitfn.image;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Objects;

/**
 * One entry of a layer: a directory, a regular file or a symbolic link, at a path relative to the image's root.
 * Owner, group and times are not part of an entry: {@link ReproducibleLayer} fixes them, so that only a path, a
 * type, a mode and content can move a layer's digest.
 *
 * @param path relative, {@code /}-separated, with no {@code .} or {@code ..} part
 * @param mode the permission bits, for example {@code 0644}
 * @param size the file's length in bytes; 0 for directories and links
 * @param linkTarget a link's target as the link holds it; null for the other types
 * @param content opens a file's bytes; null for the other types
 */
public record LayerEntry(String path, Type type, int mode, long size, String linkTarget, Content content) {

  /** What an entry is. Hard links, devices and pipes never go into a layer. */
  public enum Type { DIRECTORY, FILE, SYMLINK }

  /** A file's bytes, opened when the layer is written, once. */
  @FunctionalInterface
  public interface Content {
    InputStream open() throws IOException;
  }

  public LayerEntry {
    Objects.requireNonNull(type, "type");
    path = LayerPaths.check(path);
    if ((mode & ~07777) != 0) {
      throw new IllegalArgumentException(
          path + ": mode " + Integer.toOctalString(mode) + " has more than permission bits");
    }
    if (type == Type.FILE) {
      Objects.requireNonNull(content, path + ": a file needs content");
      if (size < 0) {
        throw new IllegalArgumentException(path + ": negative size " + size);
      }
    } else if (size != 0) {
      throw new IllegalArgumentException(path + ": only a file has a size");
    }
    if ((type == Type.SYMLINK) != (linkTarget != null)) {
      throw new IllegalArgumentException(path + ": a link target belongs to a symbolic link, and only to one");
    }
  }

  public static LayerEntry directory(String path, int mode) {
    return new LayerEntry(path, Type.DIRECTORY, mode, 0, null, null);
  }

  public static LayerEntry file(String path, int mode, long size, Content content) {
    return new LayerEntry(path, Type.FILE, mode, size, null, content);
  }

  /** A file whose bytes are in memory, as a source layer's are. */
  public static LayerEntry file(String path, int mode, byte[] bytes) {
    byte[] copy = bytes.clone();
    return file(path, mode, copy.length, () -> new ByteArrayInputStream(copy));
  }

  public static LayerEntry symlink(String path, String target) {
    return new LayerEntry(path, Type.SYMLINK, 0777, 0, Objects.requireNonNull(target, "target"), null);
  }
}
