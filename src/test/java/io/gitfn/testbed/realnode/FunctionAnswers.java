package io.gitfn.testbed.realnode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.gitfn.api.function.Function;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;

/** What the real-node tests ask of a Function on the node: that it runs and answers through its Service. */
public final class FunctionAnswers {

  /** A build Job and a rollout on the real node, with room for a loaded machine. */
  public static final Duration BUILD_AND_ROLL_OUT = Duration.ofMinutes(6);
  private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  private FunctionAnswers() {}

  /** Waits until every condition of the Function is True and its Service's ClusterIP answers {@code expected}. */
  public static void awaitAnswer(KubernetesClient client, String namespace, String name, String expected) {
    await().atMost(BUILD_AND_ROLL_OUT).pollInterval(Duration.ofSeconds(2)).ignoreExceptions().untilAsserted(() ->
        assertThat(runningAnswer(client, namespace, name)).isEqualTo(expected));
  }

  /** Waits until every condition of the Function is True and its Service's ClusterIP answers 200; returns the body. */
  public static String awaitRunning(KubernetesClient client, String namespace, String name) {
    AtomicReference<String> body = new AtomicReference<>();
    await().atMost(BUILD_AND_ROLL_OUT).pollInterval(Duration.ofSeconds(2)).ignoreExceptions().untilAsserted(() ->
        body.set(runningAnswer(client, namespace, name)));
    return body.get();
  }

  /** The answer of the Function's Service, once every condition of the Function is True; fails before. */
  private static String runningAnswer(KubernetesClient client, String namespace, String name) throws Exception {
    Function fn = client.resources(Function.class).inNamespace(namespace).withName(name).get();
    assertThat(fn.getStatus()).as("status of %s", name).isNotNull();
    assertThat(fn.getStatus().getConditions()).as("conditions of %s", name)
        .allSatisfy(c -> assertThat(c.getStatus()).as(describe(c)).isEqualTo("True")).hasSize(3);
    String clusterIp = client.services().inNamespace(namespace).withName(name).get().getSpec().getClusterIP();
    return get("http://" + clusterIp + "/");
  }

  /** GETs {@code url} and returns the body of its 200 answer. */
  public static String get(String url) throws Exception {
    HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10))
        .GET().build(), HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).as("GET %s: %s", url, response.body()).isEqualTo(200);
    return response.body();
  }

  private static String describe(Condition condition) {
    return condition.getType() + " " + condition.getReason() + ": " + condition.getMessage();
  }
}
