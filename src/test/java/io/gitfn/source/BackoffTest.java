package io.gitfn.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class BackoffTest {

  private final Backoff backoff = new Backoff(Duration.ofSeconds(5), Duration.ofMinutes(5));

  @Test
  void doublesFromTheInitialWaitAndStopsAtTheCap() {
    assertThat(backoff.after(0)).isZero();
    assertThat(backoff.after(1)).isEqualTo(Duration.ofSeconds(5));
    assertThat(backoff.after(2)).isEqualTo(Duration.ofSeconds(10));
    assertThat(backoff.after(4)).isEqualTo(Duration.ofSeconds(40));
    assertThat(backoff.after(7)).isEqualTo(Duration.ofMinutes(5));
    assertThat(backoff.after(Integer.MAX_VALUE)).isEqualTo(Duration.ofMinutes(5));
  }

  @Test
  void needsAPositiveInitialWaitBelowTheCap() {
    assertThatThrownBy(() -> new Backoff(Duration.ZERO, Duration.ofSeconds(1)))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new Backoff(Duration.ofSeconds(2), Duration.ofSeconds(1)))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void settingsHaveDocumentedDefaults() {
    SourceSettings settings = SourceSettings.defaults(java.nio.file.Path.of("/var/cache/gitfn"));
    assertThat(settings.diskBudgetBytes()).isEqualTo(10L * 1024 * 1024 * 1024);
    assertThat(settings.timeout()).isEqualTo(Duration.ofSeconds(60));
    assertThat(settings.maxRepositoryBytes()).isEqualTo(1024L * 1024 * 1024);
    assertThat(settings.maxFileBytes()).isEqualTo(10L * 1024 * 1024);
  }
}
