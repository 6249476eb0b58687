package io.gitfn.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import io.gitfn.testbed.ContractHostServer;
import io.gitfn.testbed.ContractHostServer.Request;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kyma's runtime contract where gitfn's runtimes used to differ (issue 29), through {@code gitfn up} with real
 * Node.js and Python processes, as {@code RealNodeKymaContractE2E} checks it in a cluster: a thrown error answers
 * 500 {@code Internal server error} and its text goes to the Function's log only; a caller's trace reaches the calls
 * the Function makes with a package the runtime lends it (axios, requests) without the Function declaring it, and
 * spans go to the collector its {@code TRACE_COLLECTOR_ENDPOINT} names, and nowhere when it names none; Node.js's
 * {@code emitCloudEvent} posts one structured CloudEvent; Python's {@code event.ceHeaders} holds an incoming
 * CloudEvent. The Functions are Function manifests with inline source in a followed folder, so their env comes from
 * {@code spec.env}. The service they call, the collector and the publisher proxy are one HTTP server on loopback.
 */
class LocalModeKymaContractE2E {

  // Neither handler declares a dependency: axios and requests are the runtimes' own.
  private static final String NODE_HANDLER = """
      const axios = require('axios');

      function main(event) {
        switch (event.extensions.request.path) {
          case '/throw':
            throw new Error('cannot reach the database as admin:hunter2');
          case '/reject':
            return Promise.reject(new Error('the database refused admin:hunter2'));
          case '/throw-string':
            throw 'no such order';
          case '/emit':
            return event.emitCloudEvent('order.created', 'shop', { orderId: 7 }, { eventtypeversion: 'v1' })
              .then((published) => `published: ${published.status}`);
          default:
            return axios.get(process.env.DOWNSTREAM).then((answer) => answer.data);
        }
      }

      module.exports = { main };
      """;

  private static final String PYTHON_HANDLER = """
      import os

      import requests


      def main(event, context):
          path = event['extensions']['request'].path
          if path == '/fail':
              raise ValueError('cannot reach the database as admin:hunter2')
          if path == '/lent':
              return requests.__file__
          if path == '/event':
              fields = event.ceHeaders
              return {
                  'attributes': {key: value for key, value in fields.items() if key.startswith('ce-')},
                  'data': fields['data'],
                  'path': fields['extensions']['request'].path,
              }
          return requests.get(os.environ['DOWNSTREAM'], timeout=10).text
      """;

  private static final Duration WAIT = Duration.ofSeconds(60);
  private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
  private static final ObjectMapper JSON = new ObjectMapper();
  // The runtimes install once into LocalModeE2E's cache and stay there between runs.
  private static final Path CACHE = Path.of(System.getProperty("gitfn.project.dir", "."), "target", "up-cache");
  private static final StringWriter PROGRESS = new StringWriter();

  @TempDir
  static Path folder;
  private static ContractHostServer host;
  private static LocalMode up;

  @BeforeAll
  static void start() throws Exception {
    host = new ContractHostServer(InetAddress.getLoopbackAddress());
    // nodejs24, Kyma's default: gitfn's one Node.js server runs every nodejs runtime on Node.js 20.6 or later, and
    // local mode runs the node on PATH (Node.js 20.20 where this was written), only noting that the version differs.
    writeFunction("contract-node", "nodejs24", NODE_HANDLER, true);
    writeFunction("contract-node-quiet", "nodejs24", NODE_HANDLER, false);
    writeFunction("contract-python", "python312", PYTHON_HANDLER, true);
    writeFunction("contract-python-quiet", "python312", PYTHON_HANDLER, false);
    Files.createDirectories(CACHE);
    up = LocalMode.start(new LocalSettings(CACHE, "127.0.0.1", 0, Duration.ofMillis(200)),
        new PrintWriter(PROGRESS, true));
    up.follow(folder.toString(), null, null);
    // A Function that cannot start (before issue 29, Node.js's require('axios')) fails the class at once.
    await().atMost(WAIT)
        .failFast(() -> assertThat(PROGRESS.toString()).as("a Function did not start").doesNotContain("✗ default/"))
        .untilAsserted(() -> assertThat(PROGRESS.toString()).as("gitfn up's progress")
            .contains("default/contract-node: switched", "default/contract-node-quiet: switched",
                "default/contract-python: switched", "default/contract-python-quiet: switched"));
  }

  @AfterAll
  static void stop() throws Exception {
    if (up != null) {
      up.close();
    }
    if (host != null) {
      host.close();
    }
  }

  @Test
  void aNodeFunctionHidesItsErrorsEmitsStructuredCloudEventsAndCarriesTheCallersTraceThroughAxios()
      throws Exception {
    assertTraceCarried("contract-node");
    assertErrorHidden("contract-node", "/throw", "cannot reach the database as admin:hunter2");
    assertErrorHidden("contract-node", "/reject", "the database refused admin:hunter2");

    HttpResponse<String> thrownString = send("contract-node", "/throw-string", Map.of(), null);
    assertThat(thrownString.statusCode()).isEqualTo(500);
    assertThat(thrownString.body()).as("a thrown string is the handler's own answer").isEqualTo("no such order");

    HttpResponse<String> emitted = send("contract-node", "/emit", Map.of(), null);
    assertThat(emitted.body()).isEqualTo("published: 200");
    List<Request> published = host.requests("/publisher/contract-node");
    assertThat(published).as("one POST per emitCloudEvent").hasSize(1);
    assertThat(published.get(0).headers().get("content-type")).startsWith("application/cloudevents+json");
    assertThat(published.get(0).headers()).as("structured mode: the attributes are in the body, not in headers")
        .doesNotContainKey("ce-type");
    JsonNode event = JSON.readTree(published.get(0).body());
    assertThat(event.get("specversion").asText()).isEqualTo("1.0");
    assertThat(event.get("type").asText()).isEqualTo("order.created");
    assertThat(event.get("source").asText()).isEqualTo("shop");
    assertThat(event.get("eventtypeversion").asText()).isEqualTo("v1");
    assertThat(event.get("id").asText()).matches("[0-9a-f-]{36}");
    assertThat(Duration.between(Instant.parse(event.get("time").asText()), Instant.now()).abs())
        .isLessThan(Duration.ofMinutes(1));
    assertThat(event.get("data")).isEqualTo(JSON.readTree("{\"orderId\": 7}"));
  }

  @Test
  void aPythonFunctionHidesItsErrorsReadsCloudEventsThroughCeHeadersAndCarriesTheCallersTraceThroughRequests()
      throws Exception {
    assertTraceCarried("contract-python");
    assertErrorHidden("contract-python", "/fail", "cannot reach the database as admin:hunter2");
    assertThat(send("contract-python", "/lent", Map.of(), null).body())
        .as("requests is the runtime's, not one the machine's python3 happens to have")
        .startsWith(CACHE.resolve("runtimes").toAbsolutePath() + "/python-");

    JsonNode expected = JSON.readTree("""
        {"attributes": {"ce-specversion": "1.0", "ce-type": "order.created", "ce-source": "shop", "ce-id": "e1"},
         "data": {"orderId": 7}, "path": "/event"}""");
    HttpResponse<String> binary = send("contract-python", "/event", Map.of("Content-Type", "application/json",
        "ce-specversion", "1.0", "ce-type", "order.created", "ce-source", "shop", "ce-id", "e1"),
        "{\"orderId\": 7}");
    assertThat(binary.statusCode()).as(binary.body()).isEqualTo(200);
    assertThat(JSON.readTree(binary.body())).as("a binary CloudEvent").isEqualTo(expected);
    HttpResponse<String> structured = send("contract-python", "/event",
        Map.of("Content-Type", "application/cloudevents+json"), """
            {"specversion": "1.0", "type": "order.created", "source": "shop", "id": "e1", "data": {"orderId": 7}}""");
    assertThat(structured.statusCode()).as(structured.body()).isEqualTo(200);
    assertThat(JSON.readTree(structured.body())).as("a structured CloudEvent").isEqualTo(expected);
  }

  /**
   * A call with a caller's {@code traceparent}: the Function's call downstream carries its trace id with a new parent
   * span, in W3C and B3 headers; spans reach the Function's collector, and its quiet twin, which names none, sends
   * none even with OpenTelemetry's own endpoint variables set.
   */
  private static void assertTraceCarried(String name) throws Exception {
    String quiet = name + "-quiet";
    for (String function : List.of(quiet, name)) {
      String traceId = hex(16);
      String callerSpan = hex(8);
      HttpResponse<String> traced = send(function, "/", Map.of("traceparent", "00-" + traceId + "-" + callerSpan
          + "-01"), null);

      assertThat(traced.statusCode()).as(traced.body()).isEqualTo(200);
      assertThat(traced.body()).isEqualTo("downstream ok");
      List<Request> calls = host.requests("/downstream/" + function);
      assertThat(calls).as("the Function's calls downstream").hasSize(1);
      Map<String, String> headers = calls.get(0).headers();
      String[] traceparent = headers.getOrDefault("traceparent", "").split("-");
      assertThat(traceparent).as("the traceparent of " + function + "'s call: " + headers).hasSize(4);
      assertThat(traceparent[1]).as("the trace id the Function's call carries").isEqualTo(traceId);
      assertThat(traceparent[2]).as("the parent span of the Function's call: its own, not the caller's")
          .isNotEqualTo(callerSpan).matches("[0-9a-f]{16}");
      assertThat(headers).as("B3, as Kyma's runtimes send it too").containsEntry("x-b3-traceid", traceId)
          .containsKey("x-b3-spanid");
    }
    await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
        assertThat(host.requests("/collector/" + name + "/v1/traces")).as("span exports the collector received")
            .isNotEmpty()
            .allSatisfy(export -> {
              assertThat(export.headers().get("content-type")).matches("application/(x-protobuf|json).*");
              assertThat(export.body()).as("a span export").isNotEmpty();
            }));
    assertThat(host.requests("/otel-defaults/" + quiet + "/v1/traces"))
        .as("spans of a Function without TRACE_COLLECTOR_ENDPOINT, sent by now if they were sent at all").isEmpty();
  }

  /** A thrown error answers 500 {@code Internal server error}; its text is in the Function's log, not the answer. */
  private static void assertErrorHidden(String name, String path, String message) throws Exception {
    HttpResponse<String> failed = send(name, path, Map.of(), null);

    assertThat(failed.statusCode()).isEqualTo(500);
    assertThat(failed.body().strip()).isEqualTo("Internal server error");
    Path log = CACHE.resolve("logs").resolve("default-" + name + "-" + port(name) + ".log");
    await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(Files.readString(log))
        .as("the Function's log, " + log).contains(message));
  }

  /** The port gitfn up started the Function on, from its progress line, which names the Function's log too. */
  private static String port(String name) {
    Matcher started = Pattern.compile("default/" + name + ": started \\S+ on port (\\d+)").matcher(PROGRESS.toString());
    assertThat(started.find()).as(PROGRESS.toString()).isTrue();
    return started.group(1);
  }

  /**
   * A Function manifest with inline source; {@code traced} names the collector in {@code TRACE_COLLECTOR_ENDPOINT},
   * otherwise only OpenTelemetry's own endpoint variables point at the host server, which must hear nothing.
   */
  private static void writeFunction(String name, String runtime, String handler, boolean traced) throws IOException {
    String tracing = traced
        ? env("TRACE_COLLECTOR_ENDPOINT", host.uri("/collector/" + name + "/v1/traces"))
        : env("OTEL_EXPORTER_OTLP_ENDPOINT", host.uri("/otel-defaults/" + name))
            + env("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", host.uri("/otel-defaults/" + name + "/v1/traces"));
    Files.writeString(folder.resolve(name + ".yaml"), """
        apiVersion: serverless.kyma-project.io/v1alpha2
        kind: Function
        metadata:
          name: %s
        spec:
          runtime: %s
          source:
            inline:
              source: |
        %s  env:
        %s%s""".formatted(name, runtime, handler.indent(8), env("DOWNSTREAM", host.uri("/downstream/" + name))
        + env("PUBLISHER_PROXY_ADDRESS", host.uri("/publisher/" + name)), tracing));
  }

  private static String env(String name, String value) {
    return "    - name: " + name + "\n      value: " + value + "\n";
  }

  private static HttpResponse<String> send(String function, String path, Map<String, String> headers, String body)
      throws Exception {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + up.port() + "/"
        + function + path)).timeout(Duration.ofSeconds(20))
        .method(body == null ? "GET" : "POST", body == null ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofString(body));
    headers.forEach(request::header);
    return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
  }

  private static String hex(int bytes) {
    byte[] random = new byte[bytes];
    new SecureRandom().nextBytes(random);
    return HexFormat.of().formatHex(random);
  }
}
