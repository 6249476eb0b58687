package io.gitfn.reconcile.repository;

import static io.gitfn.reconcile.repository.TestRepository.NOW;
import static io.gitfn.reconcile.repository.TestRepository.REVISION;
import static org.assertj.core.api.Assertions.assertThat;

import io.gitfn.api.repository.FunctionRepositoryStatus;
import io.gitfn.api.repository.WebhookReceipt;
import io.gitfn.reconcile.Result;
import io.gitfn.trigger.SourceState;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The status shows the revision Git holds and the webhook delivery that last asked for a check, as the watcher knows
 * them, and keeps what it showed while the watcher knows nothing newer.
 */
class FetchedStepTest {

  private final FetchedStep step = new FetchedStep();

  @Test
  void theStatusShowsTheRevisionGitHoldsAndTheDeliveryThatAskedForTheCheck() {
    SourceState known = new SourceState(Optional.of(REVISION), Optional.of(NOW), Optional.empty(), 0,
        Optional.of(new SourceState.Delivery("github", "d-42", NOW.minusSeconds(2))));
    RepositoryState state = TestRepository.infra().pass(known);

    Result result = step.run(state);

    assertThat(result).isEqualTo(Result.next());
    assertThat(state.status().getLastFetchedRevision()).isEqualTo(REVISION.toString());
    WebhookReceipt receipt = state.status().getLastWebhook();
    assertThat(receipt.getForge()).isEqualTo("github");
    assertThat(receipt.getDeliveryId()).isEqualTo("d-42");
    assertThat(receipt.getTime()).isEqualTo("2026-11-27T11:59:58Z");
    assertThat(receipt.getRevision()).as("the revision it announced, which its check found")
        .isEqualTo(REVISION.toString());
    assertThat(state.finding()).as("fetching is no finding").isEmpty();
  }

  @Test
  void aWatcherThatKnowsNothingYetLeavesWhatTheStatusShowedAsItWas() {
    FunctionRepositoryStatus status = new FunctionRepositoryStatus();
    status.setLastFetchedRevision("main@sha1:" + "b".repeat(40));
    WebhookReceipt earlier = new WebhookReceipt();
    earlier.setDeliveryId("d-41");
    status.setLastWebhook(earlier);
    RepositoryState state = TestRepository.infra().status(status).pass(TestRepository.notFetchedYet());

    step.run(state);

    assertThat(state.status().getLastFetchedRevision()).isEqualTo("main@sha1:" + "b".repeat(40));
    assertThat(state.status().getLastWebhook()).isSameAs(earlier);
  }

  @Test
  void aDeliveryBeforeAnyRevisionIsKnownIsShownWithoutOne() {
    SourceState known = new SourceState(Optional.empty(), Optional.of(NOW), Optional.of("ls-remote: timeout"), 1,
        Optional.of(new SourceState.Delivery("gitea", "d-1", NOW)));
    RepositoryState state = TestRepository.infra().pass(known);

    step.run(state);

    assertThat(state.status().getLastFetchedRevision()).isNull();
    assertThat(state.status().getLastWebhook().getDeliveryId()).isEqualTo("d-1");
    assertThat(state.status().getLastWebhook().getRevision()).isNull();
  }
}
