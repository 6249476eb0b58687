package io.gitfn.notify;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A forge's API on 127.0.0.1: it records every request it gets and answers as the test says. Each request gets its
 * own thread, so an answer that never ends holds up nothing else.
 */
final class FakeForge implements AutoCloseable {

  /** One request as the forge saw it. */
  record Seen(String method, String rawPath, Headers headers, byte[] body) {}

  /** How the forge answers; it may block, write forever or never answer. */
  interface Answer {
    void answer(HttpExchange exchange) throws IOException;
  }

  private final HttpServer server;
  private final ExecutorService threads = Executors.newCachedThreadPool();
  private final List<Seen> seen = new CopyOnWriteArrayList<>();
  private volatile Answer answer = exchange -> reply(exchange, 201, "{\"state\":\"success\"}");

  private FakeForge() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.setExecutor(threads);
    server.createContext("/", exchange -> {
      try (InputStream in = exchange.getRequestBody()) {
        seen.add(new Seen(exchange.getRequestMethod(), exchange.getRequestURI().getRawPath(),
            exchange.getRequestHeaders(), in.readAllBytes()));
      }
      answer.answer(exchange);
    });
    server.start();
  }

  static FakeForge start() throws IOException {
    return new FakeForge();
  }

  /** {@code http://127.0.0.1:<port>}. */
  URI base() {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
  }

  FakeForge answering(Answer answer) {
    this.answer = answer;
    return this;
  }

  List<Seen> seen() {
    return seen;
  }

  static void reply(HttpExchange exchange, int status, String body) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }

  @Override
  public void close() {
    server.stop(0);
    threads.shutdownNow();
  }
}
