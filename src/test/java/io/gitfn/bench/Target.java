package io.gitfn.bench;

import java.math.BigDecimal;

/**
 * The values a figure may take and still pass: both bounds inclusive, either of them open. A count the behaviour fixes
 * is {@link #exactly}; a bound on one side is for figures that may honestly vary, such as times. A value that is not a
 * number (a percentile of no samples) meets no target.
 */
public record Target(double min, double max) {

  public Target {
    if (Double.isNaN(min) || Double.isNaN(max) || min > max) {
      throw new IllegalArgumentException("no value lies between " + min + " and " + max);
    }
  }

  public static Target atMost(double max) {
    return new Target(Double.NEGATIVE_INFINITY, max);
  }

  public static Target atLeast(double min) {
    return new Target(min, Double.POSITIVE_INFINITY);
  }

  public static Target exactly(double value) {
    return new Target(value, value);
  }

  public static Target between(double min, double max) {
    return new Target(min, max);
  }

  public boolean met(double value) {
    return value >= min && value <= max;
  }

  /** As the tables print it: {@code ≤ 60000 ms}, {@code = 0}, {@code ≥ 100 MB}, {@code 9 to 11}. */
  public String text(String unit) {
    String suffix = suffix(unit);
    if (min == max) {
      return "= " + number(min) + suffix;
    }
    if (min == Double.NEGATIVE_INFINITY) {
      return "≤ " + number(max) + suffix;
    }
    if (max == Double.POSITIVE_INFINITY) {
      return "≥ " + number(min) + suffix;
    }
    return number(min) + " to " + number(max) + suffix;
  }

  /** How a unit follows a number: {@code 3 ms}, a count bare, a ratio as {@code 1.2×}. */
  static String suffix(String unit) {
    return switch (unit) {
      case "n" -> "";
      case "x" -> "×";
      default -> " " + unit;
    };
  }

  private static String number(double value) {
    return BigDecimal.valueOf(value).stripTrailingZeros().toPlainString();
  }
}
