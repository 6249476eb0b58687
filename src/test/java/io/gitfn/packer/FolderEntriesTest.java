package io.gitfn.packer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import io.gitfn.image.LayerEntry;
import io.gitfn.image.LayerTooLargeException;
import io.gitfn.image.ReproducibleLayer;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FolderEntriesTest {

  private static final ReproducibleLayer.Limits ROOMY = new ReproducibleLayer.Limits(1 << 20, 100);

  @TempDir
  Path dir;

  @Test
  void foldersFilesAndLinksGoUnderThePrefixWithNormalisedModes() throws IOException {
    Path modules = Files.createDirectories(dir.resolve("node_modules/ms"));
    Files.writeString(modules.resolve("index.js"), "module.exports = 1;\n");
    Files.setPosixFilePermissions(modules.resolve("index.js"), PosixFilePermissions.fromString("rw-rw-rw-"));
    Path bin = Files.createDirectories(dir.resolve("node_modules/.bin"));
    Files.writeString(modules.resolve("cli.js"), "#!/usr/bin/env node\n");
    Files.setPosixFilePermissions(modules.resolve("cli.js"), PosixFilePermissions.fromString("rwxr-----"));
    Files.createSymbolicLink(bin.resolve("ms"), Path.of("../ms/cli.js"));

    assertThat(FolderEntries.of(dir.resolve("node_modules"), "gitfn/function/node_modules", ROOMY))
        .extracting(LayerEntry::path, LayerEntry::type, LayerEntry::mode, LayerEntry::linkTarget)
        .containsExactlyInAnyOrder(
            tuple("gitfn/function/node_modules", LayerEntry.Type.DIRECTORY, 0755, null),
            tuple("gitfn/function/node_modules/ms", LayerEntry.Type.DIRECTORY, 0755, null),
            tuple("gitfn/function/node_modules/ms/index.js", LayerEntry.Type.FILE, 0644, null),
            tuple("gitfn/function/node_modules/ms/cli.js", LayerEntry.Type.FILE, 0755, null),
            tuple("gitfn/function/node_modules/.bin", LayerEntry.Type.DIRECTORY, 0755, null),
            tuple("gitfn/function/node_modules/.bin/ms", LayerEntry.Type.SYMLINK, 0777, "../ms/cli.js"));
  }

  @Test
  void aLinkOutOfTheFolderStaysALinkAndBringsNothingIn() throws IOException {
    Path secret = Files.writeString(Files.createTempFile("registry", ".npmrc"), "//npm/:_authToken=s3cret\n");
    Path folder = Files.createDirectories(dir.resolve("packages"));
    Files.createSymbolicLink(folder.resolve("npmrc"), secret);
    Files.createSymbolicLink(folder.resolve("etc"), Path.of("/etc"));

    ByteArrayOutputStream layer = new ByteArrayOutputStream();
    ReproducibleLayer.write(FolderEntries.of(folder, "gitfn/function/packages", ROOMY), layer, ROOMY);

    assertThat(FolderEntries.of(folder, "gitfn/function/packages", ROOMY))
        .filteredOn(entry -> !entry.path().endsWith("packages"))
        .allSatisfy(entry -> assertThat(entry.type()).isEqualTo(LayerEntry.Type.SYMLINK));
    byte[] tar = new GZIPInputStream(new ByteArrayInputStream(layer.toByteArray())).readAllBytes();
    assertThat(new String(tar, StandardCharsets.ISO_8859_1)).doesNotContain("s3cret");
    Files.delete(secret);
  }

  @Test
  void anInstallThatWritesTooManyFilesStopsTheWalkNamingTheCap() throws IOException {
    Path folder = Files.createDirectories(dir.resolve("many"));
    for (int i = 0; i < 20; i++) {
      Files.writeString(folder.resolve("f" + i), "x");
    }
    assertThatThrownBy(() -> FolderEntries.of(folder, "p", new ReproducibleLayer.Limits(1 << 20, 10)))
        .isInstanceOf(LayerTooLargeException.class)
        .hasMessageEndingWith("holds more than the layer's cap of 10 entries");
  }

  @Test
  void anInstallThatWritesTooManyBytesStopsBeforeAnyIsRead() throws IOException {
    Path folder = Files.createDirectories(dir.resolve("big"));
    try (FileChannel file = FileChannel.open(folder.resolve("sparse"), StandardOpenOption.CREATE_NEW,
        StandardOpenOption.WRITE)) {
      file.write(ByteBuffer.wrap(new byte[] {1}), 10L << 30); // 10 GiB, sparse: nothing is written
    }
    assertThatThrownBy(() -> FolderEntries.of(folder, "p", ROOMY))
        .isInstanceOf(LayerTooLargeException.class)
        .hasMessageEndingWith("holds more than the layer's cap of 1048576 bytes");
  }

  @Test
  void aPipeIsRefusedWithItsPath() throws Exception {
    Path folder = Files.createDirectories(dir.resolve("odd"));
    Process mkfifo = new ProcessBuilder("mkfifo", folder.resolve("pipe").toString()).start();
    assertThat(mkfifo.waitFor()).isZero();
    assertThatThrownBy(() -> FolderEntries.of(folder, "p", ROOMY)).isInstanceOf(IOException.class)
        .hasMessageEndingWith("pipe is neither a folder, a file nor a symbolic link; a layer holds none");
  }
}
