package io.gitfn.dashboard;

import static io.gitfn.dashboard.DashboardServerTest.function;
import static io.gitfn.dashboard.DashboardServerTest.repository;
import static org.assertj.core.api.Assertions.assertThat;

import io.gitfn.api.repository.FunctionRepository;
import java.util.List;
import org.junit.jupiter.api.Test;

class OverviewTest {

  @Test
  void eachRepositoryCountsOnlyTheFunctionsLabelledForIt() {
    Overview overview = Overview.of(List.of(repository("shop", "infra", null, "Unknown", "RollingOut", "")),
        List.of(function("shop", "a", "shop.infra", "True"), function("shop", "b", "shop.infra", "Unknown"),
            function("shop", "c", "shop.infra", "False"), function("shop", "d", "shop.other", "True"),
            function("shop", "by-hand", null, "True")));

    assertThat(overview.repositories()).singleElement().satisfies(r ->
        assertThat(r.functions()).isEqualTo(new RepositorySummary.FunctionCounts(1, 1, 1)));
    assertThat(overview.functions().total()).as("every Function, whoever applied it").isEqualTo(5);
  }

  @Test
  void theStateIsOneWordFromTheConditionsWithStalledAndSuspendedFirst() {
    FunctionRepository stalled = repository("a", "s", null, "False", "InvalidRevision", "x");
    stalled.getStatus().getConditions().add(new io.fabric8.kubernetes.api.model.ConditionBuilder()
        .withType("Stalled").withStatus("True").withReason("InvalidRevision").build());
    FunctionRepository suspended = repository("a", "p", null, "True", "Succeeded", "runs");
    suspended.getSpec().setSuspend(true);

    assertThat(Overview.of(List.of(stalled, suspended, repository("a", "r", null, "True", "Succeeded", ""),
        repository("a", "f", null, "False", "FunctionsFailed", ""),
        repository("a", "u", null, "Unknown", "RollingOut", "")), List.of()).repositories())
        .extracting(RepositorySummary::name, RepositorySummary::health)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("s", Health.STALLED),
            org.assertj.core.groups.Tuple.tuple("f", Health.FAILED),
            org.assertj.core.groups.Tuple.tuple("u", Health.UNKNOWN),
            org.assertj.core.groups.Tuple.tuple("p", Health.SUSPENDED),
            org.assertj.core.groups.Tuple.tuple("r", Health.READY));
  }

  @Test
  void aRevisionIsShortenedToSevenDigitsOfItsCommit() {
    assertThat(new RepositorySummary.Revision("main@sha1:0123456789abcdef0123456789abcdef01234567").shortForm())
        .isEqualTo("main@sha1:0123456");
    assertThat(new RepositorySummary.Revision("v1.2.0@sha1:0123456").shortForm()).isEqualTo("v1.2.0@sha1:0123456");
  }

  @Test
  void aWebhookTimeThatIsNotATimeIsLeftOut() {
    FunctionRepository repository = repository("a", "w", null, "True", "Succeeded", "");
    io.gitfn.api.repository.WebhookReceipt receipt = new io.gitfn.api.repository.WebhookReceipt();
    receipt.setForge("github");
    receipt.setTime("yesterday");
    repository.getStatus().setLastWebhook(receipt);

    assertThat(Overview.of(List.of(repository), List.of()).repositories().get(0).lastWebhook()).isNull();
  }
}
