package io.gitfn.reconcile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceQuota;
import io.fabric8.kubernetes.api.model.ResourceQuotaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.gitfn.api.Annotations;
import io.gitfn.api.function.Function;
import io.gitfn.api.function.TestFunction;
import io.gitfn.controller.Controller;
import io.gitfn.source.SourceSettings;
import io.gitfn.testbed.KubeTestBed;
import io.gitfn.testbed.TestNamespace;
import io.gitfn.testbed.WithKubeCluster;
import io.gitfn.trigger.webhook.WebhookSettings;
import io.gitfn.workload.WorkloadSettings;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A step that fails with an unexpected exception (here the API server refusing the build Job: a 403 "exceeded
 * quota", a {@code KubernetesClientException} out of the build step) is not lost in a log: the Function's BuildReady
 * condition says what the API server said, with reason {@code ReconciliationFailed}, a Warning Event says it too,
 * and the pass is retried with backoff for as long as it fails, not a fixed number of times: once the cause is gone,
 * the Function is built and runs with nothing else waking it.
 *
 * <p>The quota (count/jobs.batch 0) stands for {@link #QUOTA_STANDS} after the failure shows, longer than the SDK's
 * default retry: 5 retries after the first try, with backoff from 2 s; on this machine the last came 19 s after the
 * first, and then the SDK gave up. The Function is never touched after its creation, and no event of a watched kind
 * reaches it: deleting the quota wakes nothing, so only a retry of the pass can build it.
 */
@WithKubeCluster
class StepFailureIT {

  private static final Duration WAIT = Duration.ofSeconds(60);
  private static final Duration QUOTA_STANDS = Duration.ofSeconds(40);
  private static final String QUOTA = "no-build-jobs";

  @Test
  void aStepThatThrowsShowsInStatusAndAnEventAndIsRetriedUntilItPasses(KubeTestBed bed, KubernetesClient client,
      TestNamespace ns) throws Exception {
    bed.installCrds();
    client.resourceQuotas().inNamespace(ns.name()).resource(new ResourceQuotaBuilder().withNewMetadata()
        .withName(QUOTA).endMetadata().withNewSpec().withHard(Map.of("count/jobs.batch", new Quantity("0")))
        .endSpec().build()).create();
    // Until the quota controller has counted, the API server's refusal says "status unknown", not "exceeded".
    await().atMost(WAIT).until(() -> {
      ResourceQuota quota = client.resourceQuotas().inNamespace(ns.name()).withName(QUOTA).get();
      return quota.getStatus() != null && quota.getStatus().getHard() != null
          && quota.getStatus().getHard().containsKey("count/jobs.batch");
    });

    try (JobLog created = JobLog.watch(client, ns);
        KubernetesClient controllerClient = bed.newClient();
        Controller controller = Controller.start(controllerClient,
            SourceSettings.defaults(Files.createTempDirectory("gitfn-step-failure-mirrors")),
            WebhookSettings.defaults(), ControllerSettings.defaults(), bed.layeredBuilds().settings(),
            WorkloadSettings.defaults(), "127.0.0.1", 0)) {
      client.resource(TestFunction.inline().named("quota").inNamespace(ns.name()).uid(null)
          .code("module.exports = { main: () => 'quota' };")
          .dependencies("{\"dependencies\": {\"ms\": \"2.1.3\"}}").build()).create(); // an install Job

      await().atMost(WAIT).untilAsserted(() -> {
        Function fn = get(client, ns);
        assertThat(buildCondition(fn)).as("BuildReady of the Function whose build Job the quota refuses; %s",
            describe(fn)).hasValueSatisfying(c -> {
              assertThat(c.getReason()).as("BuildReady reason").isEqualTo("ReconciliationFailed");
              assertThat(c.getMessage()).as("BuildReady message").contains("exceeded quota");
            });
      });
      await().atMost(WAIT).untilAsserted(() -> assertThat(warnings(client, ns))
          .as("Warning Events on Function %s/quota", ns.name())
          .anySatisfy(e -> assertThat(e.getMessage()).contains("exceeded quota")));

      // Longer than the SDK's default retry: a controller that gave up after it would never build.
      await().during(QUOTA_STANDS).atMost(QUOTA_STANDS.plusSeconds(10)).untilAsserted(() -> assertThat(
          client.batch().v1().jobs().inNamespace(ns.name()).list().getItems())
          .as("build Jobs while the quota stands").isEmpty());
      client.resourceQuotas().inNamespace(ns.name()).withName(QUOTA).delete();

      await().atMost(Duration.ofMinutes(2)).untilAsserted(() -> {
        Function fn = get(client, ns);
        assertThat(ready(fn)).as("the Function runs; %s", describe(fn)).isTrue();
      });
      assertThat(created.uids()).as("its install Job, made once the quota was gone (and deleted once it ran)")
          .hasSize(1);
      Function fn = get(client, ns);
      assertThat(fn.getMetadata().getGeneration()).as("the Function's spec was never changed").isEqualTo(1L);
      assertThat(Annotations.get(fn, Annotations.REQUESTED_AT)).as("nobody asked for a reconcile").isEmpty();
    }
  }

  private static Function get(KubernetesClient client, TestNamespace ns) {
    return client.resources(Function.class).inNamespace(ns.name()).withName("quota").get();
  }

  private static List<Event> warnings(KubernetesClient client, TestNamespace ns) {
    return client.v1().events().inNamespace(ns.name()).list().getItems().stream()
        .filter(e -> "Warning".equals(e.getType()) && e.getInvolvedObject() != null
            && "Function".equals(e.getInvolvedObject().getKind())
            && "quota".equals(e.getInvolvedObject().getName()))
        .toList();
  }

  private static Optional<Condition> buildCondition(Function fn) {
    if (fn == null || fn.getStatus() == null || fn.getStatus().getConditions() == null) {
      return Optional.empty();
    }
    return fn.getStatus().getConditions().stream().filter(c -> c.getType().equals("BuildReady")).findFirst();
  }

  private static String describe(Function fn) {
    return fn == null ? "no Function" : fn.getStatus() == null || fn.getStatus().getConditions() == null
        ? "the Function has no status" : "conditions " + fn.getStatus().getConditions().stream()
            .map(c -> c.getType() + "=" + c.getStatus() + " " + c.getReason() + " (" + c.getMessage() + ")").toList();
  }

  /** ConfigurationReady, BuildReady and Running all True for the current generation. */
  private static boolean ready(Function fn) {
    return fn.getStatus() != null && fn.getStatus().getConditions() != null
        && Objects.equals(fn.getStatus().getObservedGeneration(), fn.getMetadata().getGeneration())
        && fn.getStatus().getConditions().size() == 3
        && fn.getStatus().getConditions().stream().allMatch(c -> c.getStatus().equals("True"));
  }
}
