package io.gitfn.testbed;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * What {@code kubectl proxy} does, for programs that expect one: plain HTTP on a loopback port, every request passed
 * on to the API server with the admin's token added, the answer passed back as it came. Kyma's Function test
 * program reaches each Function through the API server's service proxy at the fixed address
 * {@code http://127.0.0.1:8001/api/v1/namespaces/<ns>/services/<name>:80/proxy/}, as Kyma's {@code run-local.sh}
 * sets it up with {@code kubectl proxy}; the test bed builds no {@code kubectl}.
 *
 * <p>Test code only: it forwards whatever a local process sends, with admin rights, so it listens on loopback and
 * nowhere else. Bodies are buffered whole, which suits the small requests and answers of the tests.
 */
public final class ApiServerProxy implements AutoCloseable {

  /** {@code kubectl proxy}'s default port, which Kyma's test program assumes. */
  public static final int KUBECTL_PROXY_PORT = 8001;

  /** Hop-by-hop headers, and those the JDK's client sets itself and refuses from callers. */
  private static final Set<String> NOT_FORWARDED = Set.of("connection", "content-length", "expect", "host",
      "keep-alive", "proxy-connection", "te", "trailer", "transfer-encoding", "upgrade", "authorization");

  private final HttpServer server;
  private final ExecutorService executor;
  private final HttpClient client;
  private final URI apiServer;
  private final String token;

  private ApiServerProxy(HttpServer server, ExecutorService executor, HttpClient client, URI apiServer,
      String token) {
    this.server = server;
    this.executor = executor;
    this.client = client;
    this.apiServer = apiServer;
    this.token = token;
  }

  /**
   * Listens on {@code 127.0.0.1:port} for {@code apiServer}, trusting {@code caCertificate} for its TLS and sending
   * {@code token} as the bearer. Fails, naming the port, when something else listens there already.
   */
  public static ApiServerProxy start(int port, URI apiServer, Path caCertificate, String token) {
    HttpClient client = HttpClient.newBuilder()
        .sslContext(trusting(caCertificate))
        .connectTimeout(Duration.ofSeconds(10))
        .followRedirects(HttpClient.Redirect.NEVER)
        .build();
    HttpServer server;
    try {
      server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 0);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot listen on 127.0.0.1:" + port + " as kubectl proxy would; is another "
          + "proxy (or a test run of another checkout) using that port?", e);
    }
    ExecutorService executor = Executors.newFixedThreadPool(8, r -> {
      Thread thread = new Thread(r, "api-server-proxy");
      thread.setDaemon(true);
      return thread;
    });
    ApiServerProxy proxy = new ApiServerProxy(server, executor, client, apiServer, token);
    server.setExecutor(executor);
    server.createContext("/", proxy::forward);
    server.start();
    return proxy;
  }

  /** Where it listens, {@code http://127.0.0.1:<port>/}. */
  public URI uri() {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/");
  }

  private void forward(HttpExchange exchange) throws IOException {
    try (exchange) {
      byte[] body = exchange.getRequestBody().readAllBytes();
      HttpRequest.Builder request = HttpRequest.newBuilder(apiServer.resolve(exchange.getRequestURI().toString()))
          .timeout(Duration.ofMinutes(2))
          .method(exchange.getRequestMethod(), body.length == 0
              ? HttpRequest.BodyPublishers.noBody()
              : HttpRequest.BodyPublishers.ofByteArray(body))
          .header("Authorization", "Bearer " + token);
      exchange.getRequestHeaders().forEach((name, values) -> {
        if (!NOT_FORWARDED.contains(name.toLowerCase(Locale.ROOT))) {
          values.forEach(value -> request.header(name, value));
        }
      });
      HttpResponse<InputStream> answer;
      try {
        answer = client.send(request.build(), HttpResponse.BodyHandlers.ofInputStream());
      } catch (IOException e) {
        reply(exchange, 502, List.of(), new ByteArrayInputStream(
            ("the API server did not answer: " + e).getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        return;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
      List<String[]> headers = answer.headers().map().entrySet().stream()
          .filter(header -> !NOT_FORWARDED.contains(header.getKey().toLowerCase(Locale.ROOT))
              && !header.getKey().startsWith(":"))
          .flatMap(header -> header.getValue().stream().map(value -> new String[] {header.getKey(), value}))
          .toList();
      reply(exchange, answer.statusCode(), headers, answer.body());
    }
  }

  private static void reply(HttpExchange exchange, int status, List<String[]> headers, InputStream body)
      throws IOException {
    headers.forEach(header -> exchange.getResponseHeaders().add(header[0], header[1]));
    try (body) {
      byte[] bytes = body.readAllBytes();
      boolean empty = bytes.length == 0 || "HEAD".equals(exchange.getRequestMethod());
      exchange.sendResponseHeaders(status, empty ? -1 : bytes.length);
      if (!empty) {
        try (OutputStream out = exchange.getResponseBody()) {
          out.write(bytes);
        }
      }
    }
  }

  private static SSLContext trusting(Path caCertificate) {
    try (InputStream pem = Files.newInputStream(caCertificate)) {
      KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
      store.load(null, null);
      store.setCertificateEntry("ca", CertificateFactory.getInstance("X.509").generateCertificate(pem));
      TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      trust.init(store);
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(null, trust.getTrustManagers(), null);
      return context;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the API server's CA certificate " + caCertificate, e);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("cannot trust the API server's CA certificate " + caCertificate, e);
    }
  }

  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
  }
}
