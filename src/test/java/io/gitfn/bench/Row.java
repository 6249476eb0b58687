package io.gitfn.bench;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A row of a benchmark's table, declared before the benchmark runs: its name, unit and target. A run reports each
 * figure through its row ({@link #value}), so the name and target it prints are the declared ones, and
 * docs/benchmarks.md is checked against the same declarations ({@code BenchmarkPagesTest}).
 *
 * <p>A name that starts with two spaces is a part of the row above it; the page writes it as {@code … name}.
 *
 * <p>A family stands for rows whose names the run supplies, such as the controller's writes by request: {@code name}
 * is what they start with, and {@code key} what may follow. The run reports those it saw, so the page may list any of
 * them.
 *
 * @param unit {@code ms}, {@code MB}, {@code MiB}, {@code n} for a count or {@code x} for a ratio
 * @param target the values that pass, or null for a figure that is reported only
 * @param key for a family, what may follow {@code name}; null for a single row
 */
public record Row(String name, String unit, Target target, Pattern key) {

  public Row {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(unit, "unit");
  }

  static Row of(String name, String unit, Target target) {
    return new Row(name, unit, target, null);
  }

  static Row millis(String name) {
    return of(name, "ms", null);
  }

  static Row millis(String name, Target target) {
    return of(name, "ms", target);
  }

  static Row count(String name) {
    return of(name, "n", null);
  }

  static Row count(String name, Target target) {
    return of(name, "n", target);
  }

  /** Rows named {@code name} followed by a key that matches {@code key}, reported only; see {@link #value(String, double)}. */
  static Row family(String name, String key, String unit) {
    return new Row(name, unit, null, Pattern.compile(key));
  }

  public boolean isFamily() {
    return key != null;
  }

  /** Whether a figure named {@code metric} is this row, or one of this family. */
  public boolean names(String metric) {
    return isFamily()
        ? metric.startsWith(name) && key.matcher(metric.substring(name.length())).matches()
        : metric.equals(name);
  }

  /** The target as the tables print it, {@code -} when there is none. */
  public String targetText() {
    return target == null ? "-" : target.text(unit);
  }

  Metric value(double value) {
    if (isFamily()) {
      throw new IllegalStateException("'" + name + "' is a family of rows; report one of them with its key");
    }
    return new Metric(name, value, unit, target);
  }

  Metric value(String member, double value) {
    if (!isFamily() || !key.matcher(member).matches()) {
      throw new IllegalStateException("'" + name + member + "' is not a row of '" + name + "'");
    }
    return new Metric(name + member, value, unit, target);
  }
}
