package io.gitfn.secrets.age;

import io.gitfn.secrets.age.AgeException.MalformedFile;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * age's ASCII armor, read as strictly as age's own reader: PEM with type {@code AGE ENCRYPTED FILE}, no headers,
 * 64-column lines of canonical padded base64 of which only the last may be short, whitespace (up to 1 KiB) allowed
 * around it and CR before each LF. Strict, so that one file has one encoding.
 */
final class Armor {

  static final String BEGIN = "-----BEGIN AGE ENCRYPTED FILE-----";
  static final String END = "-----END AGE ENCRYPTED FILE-----";
  private static final int COLUMNS = 64;
  private static final int BYTES_PER_LINE = COLUMNS / 4 * 3;
  private static final int MAX_WHITESPACE = 1024;

  private Armor() {}

  /** Whether {@code file}, after leading whitespace, starts as an armored age file does. */
  static boolean isArmored(byte[] file) {
    String text = new String(file, StandardCharsets.ISO_8859_1);
    return text.stripLeading().startsWith(BEGIN);
  }

  /** The binary age file inside {@code armored}. */
  static byte[] decode(byte[] armored) throws MalformedFile {
    String text = new String(armored, StandardCharsets.ISO_8859_1);
    String body = text.stripLeading();
    if (text.length() - body.length() > MAX_WHITESPACE) {
      throw new MalformedFile("armored age file: more than 1 KiB of whitespace before it");
    }
    int end = body.indexOf(END);
    if (end < 0) {
      throw new MalformedFile("armored age file: no " + END + " line; the file was cut short");
    }
    String trailing = body.substring(end + END.length());
    if (!trailing.isBlank()) {
      throw new MalformedFile("armored age file: text after its " + END + " line");
    }
    if (trailing.length() > MAX_WHITESPACE) {
      throw new MalformedFile("armored age file: more than 1 KiB of whitespace after it");
    }
    String[] lines = body.substring(0, end).split("\n", -1);
    if (!stripCarriageReturn(lines[0]).equals(BEGIN)) {
      throw new MalformedFile("armored age file: its first line is not " + BEGIN + " alone");
    }
    if (!lines[lines.length - 1].isEmpty()) {
      throw new MalformedFile("armored age file: " + END + " does not start a line");
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (int i = 1; i < lines.length - 1; i++) {
      String line = stripCarriageReturn(lines[i]);
      int number = i + 1;
      if (line.length() > COLUMNS) {
        throw new MalformedFile("armored age file line " + number + ": longer than 64 columns");
      }
      byte[] decoded = strictBase64(line, number);
      if (decoded.length < BYTES_PER_LINE && i != lines.length - 2) {
        throw new MalformedFile("armored age file line " + number + ": a short line before the last");
      }
      out.writeBytes(decoded);
    }
    return out.toByteArray();
  }

  private static byte[] strictBase64(String line, int number) throws MalformedFile {
    try {
      byte[] decoded = Base64.getDecoder().decode(line);
      if (!Base64.getEncoder().encodeToString(decoded).equals(line)) {
        throw new MalformedFile("armored age file line " + number + ": base64 that is not in canonical form");
      }
      return decoded;
    } catch (IllegalArgumentException e) {
      throw new MalformedFile("armored age file line " + number + ": not base64");
    }
  }

  private static String stripCarriageReturn(String line) {
    return line.endsWith("\r") ? line.substring(0, line.length() - 1) : line;
  }
}
