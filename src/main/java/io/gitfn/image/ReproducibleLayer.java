package io.gitfn.image;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.security.DigestOutputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Collection;
import java.util.HexFormat;
import java.util.TreeMap;
import java.util.zip.GZIPOutputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.apache.commons.compress.archivers.tar.TarConstants;
import org.apache.commons.io.output.CloseShieldOutputStream;
import org.apache.commons.io.output.CountingOutputStream;

/**
 * Writes a layer so that the same entries give the same bytes, whoever writes them and whenever: entries in path
 * order, every folder a path needs present, owner and group 0 with no names, every time the epoch, and gzip with
 * a fixed header. Two controllers, or a controller and a build Pod, that run the same gitfn image thus push the
 * same blob for the same files, and an image built twice has one digest. (gzip's bytes depend on the zlib the JDK
 * carries, which gitfn's image fixes.)
 *
 * <p>Bounded: the uncompressed tar may not pass {@link Limits#maxBytes()} and the entries may not pass
 * {@link Limits#maxEntries()}; a file that holds more bytes than its entry said fails too, so no file that grows
 * while it is read makes a layer larger than its cap.
 */
public final class ReproducibleLayer {

  /** The mode of a folder that no entry names but a path needs. */
  static final int IMPLIED_DIRECTORY_MODE = 0755;

  /**
   * How large a layer may be.
   *
   * @param maxBytes the uncompressed tar's bytes, headers included
   * @param maxEntries files, folders and links, implied folders included
   */
  public record Limits(long maxBytes, int maxEntries) {
    public Limits {
      if (maxBytes <= 0 || maxEntries <= 0) {
        throw new IllegalArgumentException("a layer's limits are positive");
      }
    }
  }

  private ReproducibleLayer() {}

  /**
   * Writes the layer of {@code entries} to {@code out}, gzip-compressed, and says its digests. {@code out} is
   * neither closed nor flushed.
   *
   * @throws LayerTooLargeException when the layer passes a limit; what was written to {@code out} is then partial
   * @throws IllegalArgumentException when two entries share a path, or an entry's folder is a file or a link
   */
  public static LayerDigests write(Collection<LayerEntry> entries, OutputStream out, Limits limits)
      throws IOException {
    TreeMap<String, LayerEntry> sorted = withFolders(entries, limits);
    MessageDigest compressed = sha256();
    MessageDigest uncompressed = sha256();
    // gzip's close writes its trailer and closes what it writes to; the caller's stream must stay open.
    CountingOutputStream counted =
        new CountingOutputStream(new DigestOutputStream(CloseShieldOutputStream.wrap(out), compressed));
    try (GZIPOutputStream gzip = new GZIPOutputStream(counted, 64 * 1024);
        CappedOutputStream bounded = new CappedOutputStream(new DigestOutputStream(gzip, uncompressed),
            limits.maxBytes(), () -> new LayerTooLargeException(
                "the layer is larger than its cap of " + limits.maxBytes() + " bytes"));
        TarArchiveOutputStream tar = new TarArchiveOutputStream(bounded, "UTF-8")) {
      tar.setLongFileMode(TarArchiveOutputStream.LONGFILE_POSIX);
      tar.setBigNumberMode(TarArchiveOutputStream.BIGNUMBER_POSIX);
      tar.setAddPaxHeadersForNonAsciiNames(true);
      for (LayerEntry entry : sorted.values()) {
        writeEntry(tar, entry);
      }
      tar.finish();
    }
    return new LayerDigests(hex(compressed), hex(uncompressed), counted.getByteCount());
  }

  private static TreeMap<String, LayerEntry> withFolders(Collection<LayerEntry> entries, Limits limits)
      throws LayerTooLargeException {
    TreeMap<String, LayerEntry> sorted = new TreeMap<>();
    for (LayerEntry entry : entries) {
      if (sorted.putIfAbsent(entry.path(), entry) != null) {
        throw new IllegalArgumentException("two layer entries have the path " + entry.path());
      }
      if (sorted.size() > limits.maxEntries()) {
        throw tooManyEntries(limits);
      }
    }
    for (LayerEntry entry : entries) {
      for (String folder = LayerPaths.parent(entry.path()); folder != null; folder = LayerPaths.parent(folder)) {
        LayerEntry existing = sorted.get(folder);
        if (existing == null) {
          sorted.put(folder, LayerEntry.directory(folder, IMPLIED_DIRECTORY_MODE));
        } else if (existing.type() != LayerEntry.Type.DIRECTORY) {
          throw new IllegalArgumentException(entry.path() + " is inside " + folder + ", which is not a folder");
        }
      }
    }
    if (sorted.size() > limits.maxEntries()) {
      throw tooManyEntries(limits);
    }
    return sorted;
  }

  private static void writeEntry(TarArchiveOutputStream tar, LayerEntry entry) throws IOException {
    TarArchiveEntry header = switch (entry.type()) {
      case DIRECTORY -> new TarArchiveEntry(entry.path() + "/", TarConstants.LF_DIR, true);
      case FILE -> new TarArchiveEntry(entry.path(), TarConstants.LF_NORMAL, true);
      case SYMLINK -> new TarArchiveEntry(entry.path(), TarConstants.LF_SYMLINK, true);
    };
    int typeBits = switch (entry.type()) {
      case DIRECTORY -> 040000;
      case FILE -> 0100000;
      case SYMLINK -> 0120000;
    };
    header.setMode(typeBits | entry.mode());
    header.setModTime(0);
    header.setUserId(0);
    header.setGroupId(0);
    header.setUserName("");
    header.setGroupName("");
    if (entry.type() == LayerEntry.Type.SYMLINK) {
      header.setLinkName(entry.linkTarget());
    }
    if (entry.type() == LayerEntry.Type.FILE) {
      header.setSize(entry.size());
    }
    tar.putArchiveEntry(header);
    if (entry.type() == LayerEntry.Type.FILE) {
      copyExactly(entry, tar);
    }
    tar.closeArchiveEntry();
  }

  private static void copyExactly(LayerEntry entry, OutputStream tar) throws IOException {
    long left = entry.size();
    byte[] buffer = new byte[64 * 1024];
    try (InputStream in = entry.content().open()) {
      while (left > 0) {
        int read = in.read(buffer, 0, (int) Math.min(buffer.length, left));
        if (read < 0) {
          throw new IOException(entry.path() + " holds fewer than the " + entry.size() + " bytes it was listed with;"
              + " did it change while the layer was written?");
        }
        tar.write(buffer, 0, read);
        left -= read;
      }
      if (in.read() >= 0) {
        throw new IOException(entry.path() + " holds more than the " + entry.size() + " bytes it was listed with;"
            + " did it change while the layer was written?");
      }
    }
  }

  private static LayerTooLargeException tooManyEntries(Limits limits) {
    return new LayerTooLargeException(
        "the layer has more than its cap of " + limits.maxEntries() + " files, folders and links");
  }

  static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java platform has SHA-256", e);
    }
  }

  private static String hex(MessageDigest digest) {
    return "sha256:" + HexFormat.of().formatHex(digest.digest());
  }
}
