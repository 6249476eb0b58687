package io.gitfn.bench;

/**
 * One measured figure of a benchmark.
 *
 * @param target the bound the figure should stay within (same unit), or null when there is none
 * @param lowerIsBetter whether the target is an upper bound (times, sizes) or a lower one (rates)
 */
public record Metric(String name, double value, String unit, Double target, boolean lowerIsBetter) {

  public static Metric millis(String name, double value, Double target) {
    return new Metric(name, value, "ms", target, true);
  }

  /** Whether the figure meets its target; null when there is none. */
  public Boolean met() {
    if (target == null) {
      return null;
    }
    return lowerIsBetter ? value <= target : value >= target;
  }
}
