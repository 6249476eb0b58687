package io.gitfn.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class AgeTest {

  @Test
  void printsTheLargestWholeUnitAsKubectlDoes() {
    assertThat(Age.of(Duration.ofSeconds(45))).isEqualTo("45s");
    assertThat(Age.of(Duration.ofSeconds(59))).isEqualTo("59s");
    assertThat(Age.of(Duration.ofMinutes(3).plusSeconds(59))).isEqualTo("3m");
    assertThat(Age.of(Duration.ofHours(2).plusMinutes(59))).isEqualTo("2h");
    assertThat(Age.of(Duration.ofDays(4).plusHours(23))).isEqualTo("4d");
    assertThat(Age.of(Duration.ofDays(800))).isEqualTo("2y");
  }

  @Test
  void toleratesASecondOfClockSkewAndFlagsMore() {
    assertThat(Age.of(Duration.ofMillis(-900))).isEqualTo("0s");
    assertThat(Age.of(Duration.ofSeconds(-5))).isEqualTo("<invalid>");
  }

  @Test
  void readsAnRfc3339Timestamp() {
    assertThat(Age.since("2026-01-01T00:00:00Z", Instant.parse("2026-01-01T00:03:10Z"))).isEqualTo("3m");
    assertThat(Age.since(null, Instant.now())).isEqualTo("<unknown>");
  }
}
