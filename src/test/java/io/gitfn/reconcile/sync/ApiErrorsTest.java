package io.gitfn.reconcile.sync;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import org.junit.jupiter.api.Test;

class ApiErrorsTest {

  @Test
  void theServersOwnMessageIsUsedWithoutTheRequestUrl() {
    KubernetesClientException invalid = new KubernetesClientException(
        new StatusBuilder().withCode(422).withMessage("Function.serverless.kyma-project.io \"b\" is invalid").build());

    assertThat(ApiErrors.message(invalid)).isEqualTo("Function.serverless.kyma-project.io \"b\" is invalid");
    assertThat(ApiErrors.isRejection(invalid)).isTrue();
  }

  @Test
  void credentialsInAUrlNeverReachAMessage() {
    KubernetesClientException failed =
        new KubernetesClientException("Failure executing: PATCH at: https://admin:s3cret@10.0.0.1:6443/apis/x", 500, null);

    assertThat(ApiErrors.message(failed)).doesNotContain("s3cret").doesNotContain("admin").contains("https://10.0.0.1");
    assertThat(ApiErrors.isRejection(failed)).as("a server error is transient").isFalse();
  }
}
