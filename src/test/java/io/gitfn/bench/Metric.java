package io.gitfn.bench;

/**
 * One measured figure of a benchmark, reported through its declared {@link Row}.
 *
 * @param target the values that pass (same unit), or null when there is none
 */
public record Metric(String name, double value, String unit, Target target) {

  /** Whether the figure meets its target; null when there is none. */
  public Boolean met() {
    return target == null ? null : target.met(value);
  }
}
