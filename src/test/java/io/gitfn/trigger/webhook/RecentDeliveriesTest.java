package io.gitfn.trigger.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import io.gitfn.MutableClock;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class RecentDeliveriesTest {

  private final MutableClock clock = new MutableClock(Instant.parse("2024-05-14T10:00:00Z"));

  @Test
  void anIdIsClaimedOnceWithinTheWindow() {
    RecentDeliveries recent = new RecentDeliveries(clock, Duration.ofMinutes(10), 100);
    assertThat(recent.claim("github/a")).isTrue();
    clock.advance(Duration.ofMinutes(9));
    assertThat(recent.claim("github/a")).isFalse();
    assertThat(recent.claim("github/b")).isTrue();
  }

  @Test
  void aLongIdIsKeptAsItsDigestAndStillClaimedOnce() {
    RecentDeliveries recent = new RecentDeliveries(clock, Duration.ofMinutes(10), 100);
    String huge = "github/" + "x".repeat(8000);
    assertThat(recent.claim(huge)).isTrue();
    assertThat(recent.claim(huge)).isFalse();
    assertThat(recent.claim(huge + "y")).isTrue();
    assertThat(recent.keptCharacters()).isLessThanOrEqualTo(2 * (RecentDeliveries.MAX_KEPT + 8));
  }

  @Test
  void anIdIsNewAgainOnceTheWindowHasPassed() {
    RecentDeliveries recent = new RecentDeliveries(clock, Duration.ofMinutes(10), 100);
    recent.claim("github/a");
    clock.advance(Duration.ofMinutes(10));
    assertThat(recent.claim("github/a")).isTrue();
  }

  @Test
  void expiredIdsAreForgotten() {
    RecentDeliveries recent = new RecentDeliveries(clock, Duration.ofMinutes(10), 100);
    recent.claim("a");
    recent.claim("b");
    clock.advance(Duration.ofMinutes(11));
    recent.claim("c");
    assertThat(recent.size()).isEqualTo(1);
  }

  @Test
  void memoryIsBoundedByCapacity() {
    RecentDeliveries recent = new RecentDeliveries(clock, Duration.ofMinutes(10), 3);
    for (int i = 0; i < 1000; i++) {
      recent.claim("id-" + i);
    }
    assertThat(recent.size()).isEqualTo(3);
    assertThat(recent.claim("id-999")).isFalse();
    assertThat(recent.claim("id-0")).isTrue();
  }
}
