package io.gitfn.secrets.age;

import io.gitfn.secrets.age.AgeException.MalformedFile;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;

/**
 * The header of a binary age file, parsed as strictly as age's Go code parses it: the version line, the stanzas
 * (arguments of visible ASCII, bodies of canonical unpadded base64 in 64-column lines ending with a short one), and
 * the {@code ---} line with its 32-byte MAC. The MAC covers the header's bytes up to and including {@code ---}.
 *
 * @param macedLength how many bytes of the file the MAC covers
 * @param payloadOffset where the payload (its nonce, then the STREAM chunks) starts
 */
record AgeHeader(List<Stanza> stanzas, byte[] mac, int macedLength, int payloadOffset) {

  static final int MAX_STANZAS = 64;
  private static final String VERSION_LINE = "age-encryption.org/v1";
  private static final String STANZA_PREFIX = "->";
  private static final String FOOTER_PREFIX = "---";
  private static final int COLUMNS = 64;
  private static final int BYTES_PER_LINE = COLUMNS / 4 * 3;
  private static final int MAC_LENGTH = 32;
  private static final Base64.Decoder BASE64 = Base64.getDecoder();
  private static final Base64.Encoder UNPADDED = Base64.getEncoder().withoutPadding();

  AgeHeader {
    stanzas = List.copyOf(stanzas);
  }

  static AgeHeader parse(byte[] file) throws MalformedFile {
    Lines lines = new Lines(file);
    if (!VERSION_LINE.equals(lines.next())) {
      throw new MalformedFile("not an age file: it does not start with the line " + VERSION_LINE);
    }
    List<Stanza> stanzas = new ArrayList<>();
    while (true) {
      int lineStart = lines.offset;
      String line = lines.next();
      if (line == null) {
        throw new MalformedFile("age header: it ends before its --- line");
      }
      if (line.startsWith(FOOTER_PREFIX)) {
        return new AgeHeader(stanzas, mac(line, lines.number), lineStart + FOOTER_PREFIX.length(), lines.offset);
      }
      if (stanzas.size() == MAX_STANZAS) {
        throw new MalformedFile("age header: more than " + MAX_STANZAS + " stanzas");
      }
      stanzas.add(stanza(line, lines));
    }
  }

  private static Stanza stanza(String opening, Lines lines) throws MalformedFile {
    int number = lines.number;
    List<String> words = Arrays.asList(opening.split(" ", -1));
    if (!words.get(0).equals(STANZA_PREFIX) || words.size() < 2) {
      throw new MalformedFile("age header line " + number + ": neither a stanza (-> type ...) nor the --- line");
    }
    for (String word : words.subList(1, words.size())) {
      if (word.isEmpty() || !word.chars().allMatch(c -> c >= 33 && c <= 126)) {
        throw new MalformedFile("age header line " + number + ": a stanza argument that is empty or not visible ASCII");
      }
    }
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    while (true) {
      String line = lines.next();
      if (line == null) {
        throw new MalformedFile("age header: it ends inside the stanza of line " + number);
      }
      byte[] decoded = unpaddedBase64(line, "age header line " + lines.number);
      if (decoded.length > BYTES_PER_LINE) {
        throw new MalformedFile("age header line " + lines.number + ": a stanza body line longer than 64 columns");
      }
      body.writeBytes(decoded);
      if (decoded.length < BYTES_PER_LINE) {
        return new Stanza(words.get(1), words.subList(2, words.size()), body.toByteArray());
      }
    }
  }

  private static byte[] mac(String line, int number) throws MalformedFile {
    String[] words = line.split(" ", -1);
    if (words.length != 2 || !words[0].equals(FOOTER_PREFIX)) {
      throw new MalformedFile("age header line " + number + ": the --- line is not --- and a MAC");
    }
    byte[] mac = unpaddedBase64(words[1], "age header line " + number);
    if (mac.length != MAC_LENGTH) {
      throw new MalformedFile("age header line " + number + ": the MAC is " + mac.length + " bytes, not 32");
    }
    return mac;
  }

  /** Canonical unpadded base64, as age writes it: Java's decoder alone would accept padding and stray low bits. */
  static byte[] unpaddedBase64(String text, String where) throws MalformedFile {
    try {
      byte[] decoded = BASE64.decode(text);
      if (UNPADDED.encodeToString(decoded).equals(text)) {
        return decoded;
      }
    } catch (IllegalArgumentException e) {
      // reported below, as for a non-canonical encoding
    }
    throw new MalformedFile(where + ": not canonical unpadded base64");
  }

  /** The header's LF-terminated lines; a line cut off by the end of the input is no line. */
  private static final class Lines {
    private final byte[] file;
    private int offset;
    private int number;

    Lines(byte[] file) {
      this.file = file;
    }

    String next() {
      for (int i = offset; i < file.length; i++) {
        if (file[i] == '\n') {
          String line = new String(file, offset, i - offset, StandardCharsets.ISO_8859_1);
          offset = i + 1;
          number++;
          return line;
        }
      }
      return null;
    }
  }
}
