package io.gitfn.reconcile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.gitfn.api.function.FunctionRuntime;
import io.gitfn.api.function.TestFunction;
import io.gitfn.testbed.ContractHostServer;
import io.gitfn.testbed.TestNamespace;
import io.gitfn.testbed.realnode.FunctionAnswers;
import io.gitfn.testbed.realnode.NodeGitfn;
import io.gitfn.testbed.realnode.RealNode;
import io.gitfn.testbed.realnode.WithRealNode;
import java.net.InetAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Kyma's runtime contract where gitfn used to differ, on the real node and through each Function's Service: a thrown
 * error answers 500 {@code Internal server error} and its text stays in the Pod's log, a caller's trace reaches the
 * calls the Function makes with a package Kyma's runtime lends it (axios, requests) without the Function declaring
 * it, and spans go to the collector the Function's {@code TRACE_COLLECTOR_ENDPOINT} names. The service the Function
 * calls and the collector are one HTTP server on the node's host address, which Pods reach as they reach the
 * package mirrors.
 */
@WithRealNode
class RealNodeKymaContractE2E {

  private static final String NODE_HANDLER = """
      const axios = require('axios');

      async function main(event) {
        if (event.extensions.request.path === '/fail') {
          throw new Error('cannot reach the database as admin:hunter2');
        }
        const answer = await axios.get(process.env.DOWNSTREAM);
        return answer.data;
      }

      module.exports = { main };
      """;

  private static final String PYTHON_HANDLER = """
      import os

      import requests


      def main(event, context):
          if event['extensions']['request'].path == '/fail':
              raise ValueError('cannot reach the database as admin:hunter2')
          return requests.get(os.environ['DOWNSTREAM'], timeout=10).text
      """;

  private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private static NodeGitfn gitfn;
  private static ContractHostServer host;

  @BeforeAll
  static void start(RealNode node) throws Exception {
    gitfn = NodeGitfn.start(node);
    host = new ContractHostServer(InetAddress.getByName(node.hostAddress()));
  }

  @AfterAll
  static void stop() throws Exception {
    if (host != null) {
      host.close();
    }
    gitfn.close();
  }

  @Test
  void aNodeFunctionHidesItsErrorsAndCarriesTheCallersTraceThroughAxios(KubernetesClient client, TestNamespace ns)
      throws Exception {
    assertKymaContract(client, ns, "contract-node", FunctionRuntime.NODEJS24, NODE_HANDLER);
  }

  @Test
  void aPythonFunctionHidesItsErrorsAndCarriesTheCallersTraceThroughRequests(KubernetesClient client,
      TestNamespace ns) throws Exception {
    assertKymaContract(client, ns, "contract-python", FunctionRuntime.PYTHON312, PYTHON_HANDLER);
  }

  private static void assertKymaContract(KubernetesClient client, TestNamespace ns, String name,
      FunctionRuntime runtime, String handler) throws Exception {
    gitfn.prepare(client, ns.name());
    client.resource(TestFunction.inline().named(name).inNamespace(ns.name()).uid(null).runtime(runtime)
        .code(handler)
        .env("DOWNSTREAM", host.uri("/downstream/" + name))
        .env("TRACE_COLLECTOR_ENDPOINT", host.uri("/collector/" + name + "/v1/traces"))
        .build()).create();
    FunctionAnswers.awaitAnswer(client, ns.name(), name, "downstream ok");
    String service = "http://" + client.services().inNamespace(ns.name()).withName(name).get().getSpec()
        .getClusterIP();

    String traceId = hex(16);
    String callerSpan = hex(8);
    HttpResponse<String> traced = send(service + "/", Map.of("traceparent", "00-" + traceId + "-" + callerSpan + "-01"));

    assertThat(traced.statusCode()).as(traced.body()).isEqualTo(200);
    Map<String, String> seen = host.requests("/downstream/" + name).stream().map(ContractHostServer.Request::headers)
        .filter(headers -> headers.getOrDefault("traceparent", "").contains(traceId)).findFirst()
        .orElseThrow(() -> new AssertionError("no call reached the downstream service with trace " + traceId
            + "; it saw " + host.requests("/downstream/" + name)));
    String[] traceparent = seen.get("traceparent").split("-");
    assertThat(traceparent[1]).as("the trace id the Function's call carries").isEqualTo(traceId);
    assertThat(traceparent[2]).as("the parent span of the Function's call: its own, not the caller's")
        .isNotEqualTo(callerSpan).matches("[0-9a-f]{16}");
    assertThat(seen).as("B3, as Kyma's runtimes send it too").containsEntry("x-b3-traceid", traceId)
        .containsKey("x-b3-spanid");
    await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
        assertThat(host.requests("/collector/" + name + "/v1/traces")).as("span exports the collector received")
            .isNotEmpty()
            .allSatisfy(export -> {
              assertThat(export.headers().get("content-type")).matches("application/(x-protobuf|json).*");
              assertThat(export.body()).as("a span export").isNotEmpty();
            }));

    HttpResponse<String> failed = send(service + "/fail", Map.of());

    assertThat(failed.statusCode()).isEqualTo(500);
    assertThat(failed.body().strip()).isEqualTo("Internal server error");
    assertThat(failed.body()).doesNotContain("hunter2");
  }

  private static HttpResponse<String> send(String url, Map<String, String> headers) throws Exception {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(20)).GET();
    headers.forEach(request::header);
    return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
  }

  private static String hex(int bytes) {
    byte[] random = new byte[bytes];
    new SecureRandom().nextBytes(random);
    return HexFormat.of().formatHex(random);
  }
}
