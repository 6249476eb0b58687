package io.gitfn.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.gitfn.MutableClock;
import io.gitfn.testbed.TestNamespace;
import io.gitfn.testbed.WithKubeApi;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** A Function page's Events, from a real API server: one list call per Function per few seconds, whoever looks. */
@WithKubeApi
class RecentEventsIT {

  @Test
  void viewersWithinAFewSecondsShareOneAnswerAndTheNextOneSeesNewEvents(KubernetesClient client, TestNamespace ns) {
    MutableClock clock = new MutableClock(Instant.parse("2026-11-26T10:00:00Z"));
    RecentEvents events = new RecentEvents(client, clock);
    event(client, ns, "hello", "first", "JobRunning");
    event(client, ns, "other", "not about hello", "JobRunning");

    assertThat(events.about(ns.name(), "hello")).extracting(FunctionPage.EventLine::message)
        .containsExactly("first");
    event(client, ns, "hello", "second", "DeploymentReady");
    assertThat(events.about(ns.name(), "hello")).as("within %s: the same answer", RecentEvents.FRESH)
        .hasSize(1);

    clock.advance(RecentEvents.FRESH.plus(Duration.ofSeconds(1)));
    assertThat(events.about(ns.name(), "hello")).extracting(FunctionPage.EventLine::message)
        .containsExactlyInAnyOrder("first", "second");
  }

  @Test
  void aLongMessageIsCutAndAtMostThirtyEventsAreShown(KubernetesClient client, TestNamespace ns) {
    RecentEvents events = new RecentEvents(client, new MutableClock(Instant.parse("2026-11-26T10:00:00Z")));
    for (int i = 0; i < RecentEvents.EVENTS + 5; i++) {
      event(client, ns, "busy", "x".repeat(5000), "Reason" + i);
    }

    assertThat(events.about(ns.name(), "busy")).hasSize(RecentEvents.EVENTS)
        .allSatisfy(e -> assertThat(e.message()).hasSize(1025).endsWith("…"));
  }

  @Test
  void thousandsOfEventsAboutOneFunctionAreReadOnePageAtMost(KubernetesClient client, TestNamespace ns) {
    RecentEvents events = new RecentEvents(client, new MutableClock(Instant.parse("2026-11-26T10:00:00Z")));
    for (int i = 0; i < RecentEvents.LISTED + 20; i++) {
      event(client, ns, "spammed", "event " + i, "Spam");
    }

    assertThat(events.listed(ns.name(), "spammed")).hasSize((int) RecentEvents.LISTED);
    assertThat(events.about(ns.name(), "spammed")).hasSize(RecentEvents.EVENTS);
  }

  private static void event(KubernetesClient client, TestNamespace ns, String function, String message,
      String reason) {
    client.v1().events().inNamespace(ns.name()).resource(new EventBuilder()
        .withNewMetadata().withGenerateName(function + "-").endMetadata()
        .withNewInvolvedObject().withKind("Function").withApiVersion("serverless.kyma-project.io/v1alpha2")
        .withNamespace(ns.name()).withName(function).endInvolvedObject()
        .withType("Normal").withReason(reason).withMessage(message)
        .withLastTimestamp(Instant.now().toString()).withCount(1).build()).create();
  }
}
