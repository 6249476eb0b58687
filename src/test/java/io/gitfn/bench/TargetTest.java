package io.gitfn.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** A target passes only the values the behaviour allows: an exact count fails below it too. */
class TargetTest {

  @Test
  void anExactCountFailsBelowAndAboveIt() {
    Target one = Target.exactly(1);

    assertThat(one.met(1)).isTrue();
    assertThat(one.met(0)).isFalse();
    assertThat(one.met(2)).isFalse();
  }

  @Test
  void aRangeHoldsBothBoundsAndNothingThatIsNotANumber() {
    Target cycle = Target.between(8, 11);

    assertThat(cycle.met(8)).isTrue();
    assertThat(cycle.met(11)).isTrue();
    assertThat(cycle.met(7.9)).isFalse();
    assertThat(cycle.met(11.1)).isFalse();
    assertThat(cycle.met(Double.NaN)).isFalse();
    assertThat(Target.atMost(500).met(Double.NaN)).isFalse();
  }

  @Test
  void targetsPrintWithTheirUnit() {
    assertThat(Target.atMost(60_000).text("ms")).isEqualTo("≤ 60000 ms");
    assertThat(Target.atLeast(100).text("MB")).isEqualTo("≥ 100 MB");
    assertThat(Target.exactly(0).text("n")).isEqualTo("= 0");
    assertThat(Target.between(8, 11).text("n")).isEqualTo("8 to 11");
    assertThat(Target.atMost(0.5).text("x")).isEqualTo("≤ 0.5×");
  }
}
