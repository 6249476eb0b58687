package io.gitfn.secrets.age;

import java.io.ByteArrayOutputStream;
import java.util.Arrays;
import java.util.Locale;

/**
 * Bech32 (BIP 173) as age uses it for its keys: no 90-character limit, one case throughout, data bits converted
 * 8 to 5 with padding and back without. A decoding error says what is wrong and never which characters were there:
 * the string may be a secret key.
 */
final class Bech32 {

  private static final String CHARSET = "qpzry9x8gf2tvdw0s3jn54khce6mua7l";
  private static final int[] GENERATOR = {0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3};
  private static final int CHECKSUM_LENGTH = 6;

  /** A decoded string: its human-readable part, in the case it was written in, and its data. */
  record Decoded(String hrp, byte[] data) {}

  private Bech32() {}

  /** Encodes {@code data} under {@code hrp}; an upper-case {@code hrp} gives an upper-case string, as age's does. */
  static String encode(String hrp, byte[] data) {
    String lowerHrp = hrp.toLowerCase(Locale.ROOT);
    byte[] values = convertBits(data, 8, 5, true);
    byte[] checksum = checksum(lowerHrp, values);
    StringBuilder out = new StringBuilder(lowerHrp).append('1');
    for (byte value : values) {
      out.append(CHARSET.charAt(value));
    }
    for (byte value : checksum) {
      out.append(CHARSET.charAt(value));
    }
    return hrp.equals(lowerHrp) ? out.toString() : out.toString().toUpperCase(Locale.ROOT);
  }

  /** Decodes {@code text}; throws {@link IllegalArgumentException} with a message free of {@code text}'s characters. */
  static Decoded decode(String text) {
    String lower = text.toLowerCase(Locale.ROOT);
    if (!text.equals(lower) && !text.equals(text.toUpperCase(Locale.ROOT))) {
      throw new IllegalArgumentException("it mixes upper and lower case");
    }
    int separator = lower.lastIndexOf('1');
    if (separator < 1 || separator + 1 + CHECKSUM_LENGTH > lower.length()) {
      throw new IllegalArgumentException("it is not Bech32: no separator '1' before a 6-character checksum");
    }
    String hrp = text.substring(0, separator);
    for (int i = 0; i < hrp.length(); i++) {
      if (hrp.charAt(i) < 33 || hrp.charAt(i) > 126) {
        throw new IllegalArgumentException("column " + (i + 1) + " is not a printable ASCII character");
      }
    }
    byte[] values = new byte[lower.length() - separator - 1];
    for (int i = 0; i < values.length; i++) {
      int value = CHARSET.indexOf(lower.charAt(separator + 1 + i));
      if (value < 0) {
        throw new IllegalArgumentException("column " + (separator + 2 + i) + " is outside Bech32's alphabet");
      }
      values[i] = (byte) value;
    }
    if (polymod(concat(expand(hrp.toLowerCase(Locale.ROOT)), values)) != 1) {
      throw new IllegalArgumentException("its checksum does not match: a character was changed, added or lost");
    }
    byte[] data = convertBits(Arrays.copyOf(values, values.length - CHECKSUM_LENGTH), 5, 8, false);
    return new Decoded(hrp, data);
  }

  private static byte[] checksum(String lowerHrp, byte[] values) {
    int mod = polymod(concat(concat(expand(lowerHrp), values), new byte[CHECKSUM_LENGTH])) ^ 1;
    byte[] checksum = new byte[CHECKSUM_LENGTH];
    for (int i = 0; i < CHECKSUM_LENGTH; i++) {
      checksum[i] = (byte) ((mod >>> (5 * (5 - i))) & 31);
    }
    return checksum;
  }

  private static int polymod(byte[] values) {
    int checksum = 1;
    for (byte value : values) {
      int top = checksum >>> 25;
      checksum = ((checksum & 0x1ffffff) << 5) ^ value;
      for (int i = 0; i < 5; i++) {
        if (((top >>> i) & 1) == 1) {
          checksum ^= GENERATOR[i];
        }
      }
    }
    return checksum;
  }

  private static byte[] expand(String lowerHrp) {
    byte[] expanded = new byte[lowerHrp.length() * 2 + 1];
    for (int i = 0; i < lowerHrp.length(); i++) {
      expanded[i] = (byte) (lowerHrp.charAt(i) >>> 5);
      expanded[lowerHrp.length() + 1 + i] = (byte) (lowerHrp.charAt(i) & 31);
    }
    return expanded;
  }

  private static byte[] convertBits(byte[] data, int fromBits, int toBits, boolean pad) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int accumulator = 0;
    int bits = 0;
    int max = (1 << toBits) - 1;
    for (byte b : data) {
      accumulator = (accumulator << fromBits) | (b & 0xff);
      bits += fromBits;
      while (bits >= toBits) {
        bits -= toBits;
        out.write((accumulator >>> bits) & max);
      }
    }
    if (pad) {
      if (bits > 0) {
        out.write((accumulator << (toBits - bits)) & max);
      }
    } else if (bits >= fromBits || ((accumulator << (toBits - bits)) & max) != 0) {
      throw new IllegalArgumentException("its data does not end on a whole byte");
    }
    return out.toByteArray();
  }

  private static byte[] concat(byte[] first, byte[] second) {
    byte[] joined = Arrays.copyOf(first, first.length + second.length);
    System.arraycopy(second, 0, joined, first.length, second.length);
    return joined;
  }
}
