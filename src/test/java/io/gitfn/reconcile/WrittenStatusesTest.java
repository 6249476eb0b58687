package io.gitfn.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.gitfn.MutableClock;
import io.gitfn.api.repository.FunctionRepository;
import io.gitfn.api.repository.FunctionRepositoryStatus;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * A pass starts from the last status this controller wrote, however late the informer is, and the informer's copy
 * wins again as soon as it shows that write or anything after it.
 */
class WrittenStatusesTest {

  private final MutableClock clock = new MutableClock(Instant.parse("2026-11-27T12:00:00Z"));

  @Test
  void whileTheInformerStillHoldsWhatThePassReadTheWriteIsWhatTheNextPassReads() {
    try (WrittenStatuses<FunctionRepository> written = statuses()) {
      written.wrote(repository("10", "r1"), repository("11", "r2"));

      FunctionRepository next = written.freshest(repository("10", "r1"));

      assertThat(next.getStatus().getLastAppliedRevision()).isEqualTo("r2");
      assertThat(next.getMetadata().getResourceVersion()).as("still the informer's").isEqualTo("10");
    }
  }

  @Test
  void writesInARowWhileTheInformerLagsEachStartFromTheLast() {
    try (WrittenStatuses<FunctionRepository> written = statuses()) {
      written.wrote(repository("10", "r1"), repository("11", "r2"));
      FunctionRepository second = written.freshest(repository("10", "r1"));
      second.getStatus().setLastAttemptedRevision("r3");
      written.wrote(second, repository("12", "r3"));

      assertThat(written.freshest(repository("10", "r1")).getStatus().getLastAppliedRevision()).isEqualTo("r3");
      assertThat(written.freshest(repository("11", "r2")).getStatus().getLastAppliedRevision())
          .as("the informer has the first write, not the second").isEqualTo("r3");
    }
  }

  @Test
  void onceTheInformerShowsTheWriteOrAnythingAfterItItsCopyWins() {
    try (WrittenStatuses<FunctionRepository> written = statuses()) {
      written.wrote(repository("10", "r1"), repository("11", "r2"));

      assertThat(written.freshest(repository("13", "r9")).getStatus().getLastAppliedRevision()).isEqualTo("r9");
      assertThat(written.size()).isZero();
      assertThat(written.freshest(repository("10", "r1")).getStatus().getLastAppliedRevision())
          .as("nothing kept any more").isEqualTo("r1");
    }
  }

  @Test
  void aWriteTheInformerNeverShowedIsDroppedAfterAWhile() {
    try (WrittenStatuses<FunctionRepository> written = statuses()) {
      written.wrote(repository("10", "r1"), repository("11", "r2"));

      clock.advance(WrittenStatuses.KEPT.plus(Duration.ofSeconds(1)));
      written.sweep();

      assertThat(written.size()).isZero();
    }
  }

  @Test
  void theCopyIsTheCallersToChange() {
    try (WrittenStatuses<FunctionRepository> written = statuses()) {
      written.wrote(repository("10", "r1"), repository("11", "r2"));

      written.freshest(repository("10", "r1")).getStatus().setLastAppliedRevision("changed by a pass");

      assertThat(written.freshest(repository("10", "r1")).getStatus().getLastAppliedRevision()).isEqualTo("r2");
    }
  }

  private WrittenStatuses<FunctionRepository> statuses() {
    return new WrittenStatuses<>("test", clock, new KubernetesSerialization());
  }

  private static FunctionRepository repository(String resourceVersion, String applied) {
    FunctionRepository repository = new FunctionRepository();
    repository.getMetadata().setName("infra");
    repository.getMetadata().setNamespace("shop");
    repository.getMetadata().setResourceVersion(resourceVersion);
    FunctionRepositoryStatus status = new FunctionRepositoryStatus();
    status.setLastAppliedRevision(applied);
    repository.setStatus(status);
    return repository;
  }
}
