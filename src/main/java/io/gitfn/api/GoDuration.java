package io.gitfn.api;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Durations as Kubernetes users write them, like Go's: {@code 30s}, {@code 1m30s}, {@code 1.5h}, {@code 500ms}. */
public final class GoDuration {

  private static final Pattern WHOLE = Pattern.compile("^([0-9]+([.][0-9]+)?(ms|s|m|h))+$");
  private static final Pattern PART = Pattern.compile("([0-9]+(?:[.][0-9]+)?)(ms|s|m|h)");

  private GoDuration() {}

  public static Duration parse(String text) {
    if (text == null || !WHOLE.matcher(text).matches()) {
      throw new IllegalArgumentException("`" + text + "` is not a duration like 30s, 1m30s or 1h");
    }
    double millis = 0;
    Matcher part = PART.matcher(text);
    while (part.find()) {
      double value = Double.parseDouble(part.group(1));
      millis += switch (part.group(2)) {
        case "ms" -> value;
        case "s" -> value * 1_000;
        case "m" -> value * 60_000;
        default -> value * 3_600_000;
      };
    }
    return Duration.ofMillis(Math.round(millis));
  }

  /** A whole number of seconds as Go prints it: {@code 45s}, {@code 20m0s}, {@code 1h0m0s}. */
  public static String format(Duration duration) {
    long seconds = duration.toSeconds();
    long hours = seconds / 3600;
    long minutes = seconds % 3600 / 60;
    long rest = seconds % 60;
    if (hours > 0) {
      return hours + "h" + minutes + "m" + rest + "s";
    }
    return minutes > 0 ? minutes + "m" + rest + "s" : rest + "s";
  }
}
