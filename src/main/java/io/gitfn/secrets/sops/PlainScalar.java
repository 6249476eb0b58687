package io.gitfn.secrets.sops;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.regex.Pattern;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.nodes.ScalarNode;

/**
 * An unencrypted value, typed as sops' YAML library (go-yaml v3, YAML 1.2's core schema) types it, because the
 * MAC hashes its typed form ({@code true} as {@code True}, {@code +5} as {@code 5}). SnakeYAML follows YAML 1.1
 * ({@code yes} is a boolean there), so its types are not used. Texts, {@code true}/{@code false}, nulls, decimal
 * integers and plain decimal fractions are read; the rarer forms whose bytes would take more of Go's number and time
 * formatting to reproduce (octal, hex, exponents, dates, {@code .inf}) are refused, to be quoted or encrypted,
 * rather than failing later as a MAC mismatch.
 */
final class PlainScalar {

  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final Set<String> TRUE = Set.of("true", "True", "TRUE");
  private static final Set<String> FALSE = Set.of("false", "False", "FALSE");
  private static final Set<String> NULL = Set.of("", "~", "null", "Null", "NULL");
  private static final Pattern DECIMAL = Pattern.compile("[-+]?(0|[1-9][0-9]*)");
  private static final Pattern FRACTION = Pattern.compile("[-+]?(\\.[0-9]+|[0-9]+\\.[0-9]*)");
  /** Up to 15 significant digits a decimal survives a round trip through a double, so Go prints it back as is. */
  private static final int EXACT_DIGITS = 15;
  /**
   * What go-yaml may read as a number or a timestamp, underscores removed: floats, {@code .inf} and {@code .nan},
   * hex, octal and binary integers, and anything starting like a date. Broader than go-yaml (a text such as
   * {@code 0bad} is refused too), never narrower.
   */
  private static final Pattern NUMBER_OR_DATE = Pattern.compile(
      "[-+]?\\.(inf|Inf|INF|nan|NaN|NAN)|[0-9]{4}-.*|[-+]?0[xXoObB]?[0-9a-fA-F]*|"
          + "[-+]?(\\.[0-9]+|[0-9]+(\\.[0-9]*)?)([eE][-+]?[0-9]+)?");

  private PlainScalar() {}

  static Leaf read(ScalarNode scalar, String file, String path) throws SopsException {
    String text = scalar.getValue();
    if (scalar.getScalarStyle() != DumperOptions.ScalarStyle.PLAIN) {
      return text(text);
    }
    if (TRUE.contains(text) || FALSE.contains(text)) {
      boolean value = TRUE.contains(text);
      return new Leaf(NODES.booleanNode(value), (value ? "True" : "False").getBytes(StandardCharsets.UTF_8));
    }
    if (NULL.contains(text)) {
      return new Leaf(NODES.nullNode(), null);
    }
    // go-yaml tries numbers and dates only on a plain scalar that starts like one.
    if ("+-.0123456789".indexOf(text.charAt(0)) < 0) {
      return text(text);
    }
    String digits = text.replace("_", "");
    if (DECIMAL.matcher(digits).matches()) {
      try {
        long value = Long.parseLong(digits);
        return new Leaf(NODES.numberNode(value), Long.toString(value).getBytes(StandardCharsets.UTF_8));
      } catch (NumberFormatException e) {
        throw unsupported(file, path);
      }
    }
    if (FRACTION.matcher(digits).matches()) {
      return fraction(digits, file, path);
    }
    if (NUMBER_OR_DATE.matcher(digits).matches()) {
      throw unsupported(file, path);
    }
    return text(text);
  }

  /**
   * A decimal fraction as Go's {@code FormatFloat(v, 'f', -1, 64)} prints the double it parses to: the shortest
   * decimal that reads back as the same double, which for at most 15 significant digits is the input without its
   * trailing zeros.
   */
  private static Leaf fraction(String digits, String file, String path) throws SopsException {
    BigDecimal value = new BigDecimal(digits).stripTrailingZeros();
    int exponent = value.precision() - value.scale() - 1;
    if (value.signum() != 0 && (value.precision() > EXACT_DIGITS || Math.abs(exponent) > 290)) {
      throw unsupported(file, path);
    }
    String go = value.signum() != 0 ? value.toPlainString() : digits.startsWith("-") ? "-0" : "0";
    return new Leaf(NODES.numberNode(Double.parseDouble(digits)), go.getBytes(StandardCharsets.UTF_8));
  }

  /** Whether go-yaml reads a plain scalar as null. */
  static boolean isNull(String plain) {
    return NULL.contains(plain);
  }

  private static Leaf text(String text) {
    return new Leaf(NODES.textNode(text), text.getBytes(StandardCharsets.UTF_8));
  }

  private static SopsException unsupported(String file, String path) {
    return new SopsException(SopsException.Reason.UNSUPPORTED, file, path,
        "is unencrypted and reads as a YAML number, date or special value that gitfn does not hash as sops does;"
            + " quote it, or let sops encrypt it");
  }
}
