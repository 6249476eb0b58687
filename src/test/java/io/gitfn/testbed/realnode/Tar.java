package io.gitfn.testbed.realnode;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * A ustar archive written in memory: regular files and folders, owned by root, with time 0 so the same files
 * always make the same bytes (and so the same image digest). Enough for an image layer and an OCI archive.
 */
final class Tar {

  private final ByteArrayOutputStream out = new ByteArrayOutputStream();

  Tar folder(String path) {
    header(path.endsWith("/") ? path : path + "/", 0755, 0, '5');
    return this;
  }

  Tar file(String path, byte[] content, int mode) {
    header(path, mode, content.length, '0');
    out.writeBytes(content);
    out.writeBytes(new byte[(512 - content.length % 512) % 512]);
    return this;
  }

  /** The archive, closed with its two empty blocks. */
  byte[] bytes() {
    ByteArrayOutputStream copy = new ByteArrayOutputStream();
    copy.writeBytes(out.toByteArray());
    copy.writeBytes(new byte[1024]);
    return copy.toByteArray();
  }

  private void header(String path, int mode, long size, char type) {
    byte[] name = path.getBytes(StandardCharsets.UTF_8);
    if (name.length > 100) {
      throw new IllegalArgumentException("tar path over 100 bytes: " + path);
    }
    byte[] header = new byte[512];
    System.arraycopy(name, 0, header, 0, name.length);
    octal(header, 100, 8, mode);
    octal(header, 108, 8, 0);
    octal(header, 116, 8, 0);
    octal(header, 124, 12, size);
    octal(header, 136, 12, 0);
    header[156] = (byte) type;
    byte[] magic = "ustar\u000000".getBytes(StandardCharsets.US_ASCII);
    System.arraycopy(magic, 0, header, 257, magic.length);
    ascii(header, 265, "root");
    ascii(header, 297, "root");
    // The checksum is taken with its own field as eight spaces.
    for (int i = 148; i < 156; i++) {
      header[i] = ' ';
    }
    long sum = 0;
    for (byte b : header) {
      sum += b & 0xff;
    }
    byte[] checksum = String.format("%06o\0 ", sum).getBytes(StandardCharsets.US_ASCII);
    System.arraycopy(checksum, 0, header, 148, 8);
    out.writeBytes(header);
  }

  private static void octal(byte[] header, int offset, int length, long value) {
    byte[] digits = String.format("%0" + (length - 1) + "o", value).getBytes(StandardCharsets.US_ASCII);
    System.arraycopy(digits, 0, header, offset, length - 1);
  }

  private static void ascii(byte[] header, int offset, String value) {
    byte[] bytes = value.getBytes(StandardCharsets.US_ASCII);
    System.arraycopy(bytes, 0, header, offset, bytes.length);
  }
}
