package io.gitfn.secrets.sops;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.nio.charset.StandardCharsets;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.regex.Pattern;

/**
 * A decrypted value typed by its {@code type:} as sops' {@code aes.Cipher.Decrypt} types it, with the bytes sops'
 * MAC takes from that typed value. sops writes each type's canonical text (Go's {@code Itoa}, {@code FormatFloat(v,
 * 'f', -1, 64)}, {@code True}/{@code False}, RFC 3339), and the GCM tag proves the text is what it wrote, so the
 * plaintext bytes are hashed as they are, after checking that they read as their type. Errors name the path and
 * the type, never the plaintext.
 */
final class DecryptedScalar {

  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  /** Go's {@code FormatFloat(v, 'f', -1, 64)} of a finite value: no exponent, no trailing zeros. */
  private static final Pattern FLOAT = Pattern.compile("-?[0-9]+(\\.[0-9]*[1-9])?");

  private DecryptedScalar() {}

  static Leaf read(String type, byte[] plaintext, String file, String path) throws SopsException {
    String text = new String(plaintext, StandardCharsets.UTF_8);
    try {
      return switch (type) {
        case "str", "bytes" -> new Leaf(NODES.textNode(text), plaintext);
        case "int" -> {
          long value = Long.parseLong(text);
          yield new Leaf(NODES.numberNode(value), Long.toString(value).getBytes(StandardCharsets.UTF_8));
        }
        case "float" -> {
          if (!FLOAT.matcher(text).matches()) {
            throw new NumberFormatException();
          }
          double value = Double.parseDouble(text);
          yield new Leaf(NODES.numberNode(value), plaintext);
        }
        case "bool" -> new Leaf(NODES.booleanNode(bool(text)), (bool(text) ? "True" : "False")
            .getBytes(StandardCharsets.UTF_8));
        case "time" -> {
          OffsetDateTime.parse(text);
          yield new Leaf(NODES.textNode(text), plaintext);
        }
        case "comment" -> throw new SopsException(SopsException.Reason.MALFORMED_VALUE, file, path,
            "is an encrypted YAML comment where a value belongs");
        default -> throw new SopsException(SopsException.Reason.MALFORMED_VALUE, file, path,
            "has the type `" + type + "`, which is not one sops writes (str, int, float, bool, bytes, time)");
      };
    } catch (NumberFormatException | DateTimeParseException e) {
      throw new SopsException(SopsException.Reason.MALFORMED_VALUE, file, path,
          "decrypts to something that is not a " + type + " value, as its type says");
    }
  }

  /** Go's {@code strconv.ParseBool}. */
  private static boolean bool(String text) {
    return switch (text) {
      case "1", "t", "T", "TRUE", "true", "True" -> true;
      case "0", "f", "F", "FALSE", "false", "False" -> false;
      default -> throw new NumberFormatException();
    };
  }
}
