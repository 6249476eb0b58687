package io.gitfn.dashboard;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.RequestConfigBuilder;
import java.time.Duration;

/**
 * The client the pages' own reads of the API server use (Events, build Pods and their logs): one try each, within
 * {@link #TIMEOUT}, on the controller's connections. A viewer waits for the page, and the API server answers 500 at
 * once for the log of a Pod whose kubelet it cannot reach: with the client's usual retries, ten backing off to 3 s,
 * one look held the page 20 s and cost eleven requests. The failure shows on the page instead, and the next look,
 * after {@link FreshAnswers}' few seconds, tries again.
 */
final class OneTryClient {

  static final Duration TIMEOUT = Duration.ofSeconds(5);

  private OneTryClient() {}

  static KubernetesClient of(KubernetesClient client) {
    return client.newClient(new RequestConfigBuilder()
        .withRequestRetryBackoffLimit(0)
        .withRequestTimeout((int) TIMEOUT.toMillis())
        .build()).adapt(KubernetesClient.class);
  }
}
