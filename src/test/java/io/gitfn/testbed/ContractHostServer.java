package io.gitfn.testbed;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * What a Function under Kyma's runtime contract talks to, in one HTTP server that keeps every request: the service
 * it calls (any path: answers {@code downstream ok}), the OTLP/HTTP trace collector (a path ending in
 * {@code /v1/traces}: answers a collector's empty export response) and the publisher proxy (anything else POSTed is
 * kept the same way). Tests give each Function paths of its own and read back what arrived there.
 */
public final class ContractHostServer implements AutoCloseable {

  /** One request: its path, its headers with lower-case names (values joined by commas) and its body. */
  public record Request(String path, Map<String, String> headers, String body) {}

  private final HttpServer server;
  private final String base;
  private final List<Request> seen = new CopyOnWriteArrayList<>();

  /** Listens on a free port of {@code bind}: loopback for local processes, the node's host address for Pods. */
  public ContractHostServer(InetAddress bind) throws IOException {
    server = HttpServer.create(new InetSocketAddress(bind, 0), 0);
    server.createContext("/", this::handle);
    server.start();
    base = "http://" + bind.getHostAddress() + ":" + server.getAddress().getPort();
  }

  /** {@code http://<address>:<port><path>}. */
  public String uri(String path) {
    return base + path;
  }

  /** The requests to exactly {@code path}, in order. */
  public List<Request> requests(String path) {
    return seen.stream().filter(request -> request.path().equals(path)).toList();
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      // A span export or an event is at most a few KiB here; read it whole so the sender sees a clean answer.
      byte[] body = exchange.getRequestBody().readNBytes(1 << 20);
      Map<String, String> headers = new TreeMap<>();
      exchange.getRequestHeaders().forEach((header, values) -> headers.put(header.toLowerCase(Locale.ROOT),
          String.join(",", values)));
      String path = exchange.getRequestURI().getPath();
      seen.add(new Request(path, headers, new String(body, StandardCharsets.UTF_8)));
      // A collector answers an empty ExportTraceServiceResponse: no bytes in protobuf, {} in JSON.
      String type = headers.getOrDefault("content-type", "");
      boolean collector = path.endsWith("/v1/traces");
      byte[] answer = (!collector ? "downstream ok" : type.contains("json") ? "{}" : "")
          .getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().set("Content-Type", collector ? type : "text/plain");
      exchange.sendResponseHeaders(200, answer.length == 0 ? -1 : answer.length);
      exchange.getResponseBody().write(answer);
    }
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
