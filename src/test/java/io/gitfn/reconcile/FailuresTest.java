package io.gitfn.reconcile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.gitfn.manifest.InvalidManifestException;
import io.gitfn.manifest.ManifestError;
import java.io.IOException;
import java.net.ServerSocket;
import java.util.List;
import org.junit.jupiter.api.Test;

/** One taxonomy for every failure of a pass: what only a person can fix stalls; anything else is retried. */
class FailuresTest {

  @Test
  void anInvalidRevisionStallsWithItsMessage() {
    StepFailure failure = Failures.classify(new InvalidManifestException(List.of(
        new ManifestError("functions/hello.yaml", 3, "spec.runtime", "runtime `cobol85` is not one of ..."))),
        "Revision");

    assertThat(failure).isInstanceOf(StepFailure.Stalled.class);
  }

  @Test
  void anythingNobodyForesawIsRetriedAndNamesItsStepAndType() {
    StepFailure failure = Failures.classify(new NullPointerException(), "Workload");

    assertThat(failure).isInstanceOf(StepFailure.Retry.class);
    assertThat(failure.reason()).isEqualTo("ReconciliationFailed");
    assertThat(failure.getMessage()).isEqualTo("the Workload step failed and is retried with backoff:"
        + " java.lang.NullPointerException");
  }

  @Test
  void aStepFailureMeansWhatItSays() {
    StepFailure.Waiting waiting = StepFailure.waiting("DependencyNotReady", "shop/base", java.time.Duration.ZERO);

    assertThat(Failures.classify(waiting, "Dependencies")).isSameAs(waiting);
  }

  @Test
  void anApiServerThatRefusesWhoAsksIsAPersonsToFixButAQuotaOrAnOutageIsNot() {
    assertThat(Failures.refused(apiError(403, "secrets \"git\" is forbidden: User cannot get resource"))).isTrue();
    assertThat(Failures.refused(apiError(401, "Unauthorized"))).isTrue();
    assertThat(Failures.refused(apiError(403, "jobs.batch \"b\" is forbidden: exceeded quota: q"))).isFalse();
    assertThat(Failures.refused(apiError(429, "too many requests"))).isFalse();
    assertThat(Failures.refused(apiError(503, "etcdserver: leader changed"))).isFalse();
  }

  @Test
  void aSecretTheApiServerCouldNotHandOverIsRetriedNotStalled() throws IOException {
    int closed;
    try (ServerSocket socket = new ServerSocket(0)) {
      closed = socket.getLocalPort(); // nothing listens there once this closes: the API server is away
    }
    Config config = new ConfigBuilder(Config.empty()).withMasterUrl("http://127.0.0.1:" + closed)
        .withRequestRetryBackoffLimit(0).withConnectionTimeout(2_000).build();
    try (KubernetesClient client = new KubernetesClientBuilder().withConfig(config).build()) {
      assertThatThrownBy(() -> SourceBinding.secret(client, "shop", "git", "spec.secretRef"))
          .isInstanceOfSatisfying(StepFailure.Retry.class, failure -> {
            assertThat(failure.reason()).isEqualTo("SecretUnreadable");
            assertThat(failure.getMessage()).startsWith("spec.secretRef: cannot read Secret shop/git: ")
                .containsIgnoringCase("connect").endsWith("; retried with backoff");
          });
    }
  }

  private static KubernetesClientException apiError(int code, String message) {
    return new KubernetesClientException(new StatusBuilder().withCode(code).withMessage(message).build());
  }
}
