package io.gitfn.image;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.zip.GZIPInputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.junit.jupiter.api.Test;

class ReproducibleLayerTest {

  private static final ReproducibleLayer.Limits ROOMY = new ReproducibleLayer.Limits(1 << 20, 100);

  private static List<LayerEntry> handlerLayer() {
    return List.of(
        LayerEntry.file("usr/src/app/function/handler.js", 0644,
            "module.exports = { main: () => 'hi' };\n".getBytes(UTF_8)),
        LayerEntry.file("usr/src/app/function/package.json", 0644, "{}\n".getBytes(UTF_8)),
        LayerEntry.symlink("usr/src/app/function/node_modules/.bin/ms", "../ms/bin.js"),
        LayerEntry.file("usr/src/app/function/node_modules/ms/bin.js", 0755, "#!/usr/bin/env node\n".getBytes(UTF_8)));
  }

  @Test
  void theSameEntriesGiveTheSameBytesInAnyOrder() throws IOException {
    List<LayerEntry> reversed = new ArrayList<>(handlerLayer());
    Collections.reverse(reversed);

    Written first = write(handlerLayer(), ROOMY);
    Written second = write(reversed, ROOMY);

    assertThat(second.bytes).isEqualTo(first.bytes);
    assertThat(second.digests).isEqualTo(first.digests);
  }

  @Test
  void theDigestsNameTheCompressedBlobAndTheUncompressedTar() throws IOException {
    Written layer = write(handlerLayer(), ROOMY);

    assertThat(layer.digests.digest()).isEqualTo(sha256(layer.bytes));
    assertThat(layer.digests.diffId()).isEqualTo(sha256(gunzip(layer.bytes)));
    assertThat(layer.digests.size()).isEqualTo(layer.bytes.length);
  }

  @Test
  void theTarIsPinnedByteForByte() throws IOException {
    // The uncompressed tar does not depend on the JDK's zlib: a change of this digest changes every image's, so
    // every Function would be rebuilt. Change it only with the content key's template version.
    assertThat(write(handlerLayer(), ROOMY).digests.diffId())
        .isEqualTo("sha256:c12b0b9fa4e8cd53f6f595f0337c44d50490e93f28d622d00db7e93bda309c6b");
  }

  @Test
  void entriesComeInPathOrderWithEveryFolderOwnedByRootAtTheEpoch() throws IOException {
    List<TarArchiveEntry> entries = read(write(handlerLayer(), ROOMY).bytes);

    assertThat(entries).extracting(TarArchiveEntry::getName).containsExactly(
        "usr/", "usr/src/", "usr/src/app/", "usr/src/app/function/", "usr/src/app/function/handler.js",
        "usr/src/app/function/node_modules/", "usr/src/app/function/node_modules/.bin/",
        "usr/src/app/function/node_modules/.bin/ms", "usr/src/app/function/node_modules/ms/",
        "usr/src/app/function/node_modules/ms/bin.js", "usr/src/app/function/package.json");
    assertThat(entries).allSatisfy(entry -> {
      assertThat(entry.getModTime().getTime()).isZero();
      assertThat(entry.getLongUserId()).isZero();
      assertThat(entry.getLongGroupId()).isZero();
      assertThat(entry.getUserName()).isEmpty();
      assertThat(entry.getGroupName()).isEmpty();
    });
    assertThat(entries.get(0).isDirectory()).isTrue();
    assertThat(entries.get(0).getMode() & 07777).isEqualTo(0755);
    TarArchiveEntry link = entries.get(7);
    assertThat(link.isSymbolicLink()).isTrue();
    assertThat(link.getLinkName()).isEqualTo("../ms/bin.js");
    assertThat(entries.get(9).getMode() & 07777).isEqualTo(0755);
    assertThat(entries.get(10).getMode() & 07777).isEqualTo(0644);
  }

  @Test
  void aLayerOverItsByteCapIsRefusedNamingTheCap() {
    byte[] big = new byte[64 * 1024];

    assertThatThrownBy(() -> write(List.of(LayerEntry.file("big.bin", 0644, big)),
        new ReproducibleLayer.Limits(32 * 1024, 100)))
        .isInstanceOf(LayerTooLargeException.class)
        .hasMessage("the layer is larger than its cap of 32768 bytes");
  }

  @Test
  void aFileThatClaimsLittleButStreamsWithoutEndIsCutAtItsClaim() {
    // A file that grows while it is read (or a hostile content source) cannot carry a layer past its listing.
    InputStream endless = new InputStream() {
      @Override
      public int read() {
        return 'x';
      }
    };
    LayerEntry growing = LayerEntry.file("grows.log", 0644, 10, () -> endless);

    assertThatThrownBy(() -> write(List.of(growing), ROOMY))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("grows.log holds more than the 10 bytes it was listed with");
  }

  @Test
  void aFileShorterThanItsListingFails() {
    LayerEntry shrunk = LayerEntry.file("short.txt", 0644, 100, () -> new ByteArrayInputStream(new byte[3]));

    assertThatThrownBy(() -> write(List.of(shrunk), ROOMY))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("short.txt holds fewer than the 100 bytes");
  }

  @Test
  void tooManyEntriesAreRefusedBeforeAnyFileIsRead() {
    List<LayerEntry> many = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      many.add(LayerEntry.file("f" + i, 0644, 1, () -> {
        throw new AssertionError("no file is read when the layer has too many entries");
      }));
    }

    assertThatThrownBy(() -> write(many, new ReproducibleLayer.Limits(1 << 20, 4)))
        .isInstanceOf(LayerTooLargeException.class)
        .hasMessage("the layer has more than its cap of 4 files, folders and links");
  }

  @Test
  void impliedFoldersCountTowardsTheEntryCap() {
    assertThatThrownBy(() -> write(List.of(LayerEntry.file("a/b/c/d", 0644, new byte[1])),
        new ReproducibleLayer.Limits(1 << 20, 3)))
        .isInstanceOf(LayerTooLargeException.class);
  }

  @Test
  void pathsThatClimbOutOrRepeatAreRefused() {
    assertThatThrownBy(() -> LayerEntry.file("../etc/passwd", 0644, new byte[0]))
        .hasMessageContaining("no empty, . or .. part");
    assertThatThrownBy(() -> LayerEntry.file("/etc/passwd", 0644, new byte[0]))
        .hasMessageContaining("relative");
    assertThatThrownBy(() -> LayerEntry.file("a//b", 0644, new byte[0]))
        .hasMessageContaining("no empty");
    assertThatThrownBy(() -> LayerEntry.file("x".repeat(5000), 0644, new byte[0]))
        .hasMessageContaining("at most 4096 characters");
    assertThatThrownBy(() -> LayerEntry.file("a", 04777 | 010000, new byte[0]))
        .hasMessageContaining("more than permission bits");
    assertThatThrownBy(() -> write(List.of(LayerEntry.file("a", 0644, new byte[0]),
        LayerEntry.file("a", 0600, new byte[0])), ROOMY))
        .hasMessage("two layer entries have the path a");
    assertThatThrownBy(() -> write(List.of(LayerEntry.file("a", 0644, new byte[0]),
        LayerEntry.file("a/b", 0644, new byte[0])), ROOMY))
        .hasMessage("a/b is inside a, which is not a folder");
  }

  @Test
  void longAndNonAsciiNamesSurviveTheTar() throws IOException {
    String longName = "node_modules/" + "deep/".repeat(40) + "index.js";
    String unicode = "node_modules/\u00fcber/\u540d\u524d.js";

    List<TarArchiveEntry> entries = read(write(List.of(
        LayerEntry.file(longName, 0644, new byte[1]), LayerEntry.file(unicode, 0644, new byte[1])), ROOMY).bytes);

    assertThat(entries).extracting(TarArchiveEntry::getName).contains(longName, unicode);
  }

  private record Written(byte[] bytes, LayerDigests digests) {}

  private static Written write(List<LayerEntry> entries, ReproducibleLayer.Limits limits) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    LayerDigests digests = ReproducibleLayer.write(entries, out, limits);
    return new Written(out.toByteArray(), digests);
  }

  private static List<TarArchiveEntry> read(byte[] layer) throws IOException {
    List<TarArchiveEntry> entries = new ArrayList<>();
    try (TarArchiveInputStream tar = new TarArchiveInputStream(new ByteArrayInputStream(gunzip(layer)))) {
      for (TarArchiveEntry entry = tar.getNextEntry(); entry != null; entry = tar.getNextEntry()) {
        entries.add(entry);
      }
    }
    return entries;
  }

  private static byte[] gunzip(byte[] bytes) throws IOException {
    try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(bytes))) {
      return in.readAllBytes();
    }
  }

  private static String sha256(byte[] bytes) {
    try {
      return "sha256:" + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
