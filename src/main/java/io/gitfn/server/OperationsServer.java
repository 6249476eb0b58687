package io.gitfn.server;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.URI;
import java.util.function.Supplier;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * What the kubelet and Prometheus ask the controller: {@code /healthz} (liveness), {@code /readyz} (readiness) and
 * {@code /metrics} (Prometheus text format). It runs on its own port, apart from the webhook receiver, so that the
 * metrics and probes need not be reachable from the forges.
 */
public final class OperationsServer implements AutoCloseable {

  /** The answer of a probe: 200 when {@code ok}, else 503, with a one-line reason either way. */
  public record Check(boolean ok, String reason) {}

  private final SmallServer server;

  private OperationsServer(SmallServer server) {
    this.server = server;
  }

  /**
   * Starts serving on {@code host:port} (port 0 takes a free one).
   *
   * @param registry scraped for {@code /metrics} when it is a {@link PrometheusMeterRegistry}; otherwise {@code
   *     /metrics} answers 404
   */
  public static OperationsServer start(String host, int port, Supplier<Check> health, Supplier<Check> readiness,
      MeterRegistry registry) throws Exception {
    // Probes and scrapes are a few requests a minute.
    return new OperationsServer(SmallServer.start("gitfn-ops", 4, host, port,
        new Endpoints(health, readiness, registry), "health and metrics"));
  }

  /** Where the server listens, ending in {@code /}: {@code baseUri().resolve("metrics")}. */
  public URI baseUri() {
    return server.baseUri();
  }

  @Override
  public void close() throws Exception {
    server.close();
  }

  private static final class Endpoints extends Handler.Abstract {
    private final Supplier<Check> health;
    private final Supplier<Check> readiness;
    private final MeterRegistry registry;

    Endpoints(Supplier<Check> health, Supplier<Check> readiness, MeterRegistry registry) {
      this.health = health;
      this.readiness = readiness;
      this.registry = registry;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
      if (!HttpMethod.GET.is(request.getMethod()) && !HttpMethod.HEAD.is(request.getMethod())) {
        return answer(response, callback, 405, "text/plain", "use GET\n");
      }
      String path = Request.getPathInContext(request);
      switch (path) {
        case "/healthz":
          return probe(response, callback, health.get());
        case "/readyz":
          return probe(response, callback, readiness.get());
        case "/metrics":
          if (registry instanceof PrometheusMeterRegistry prometheus) {
            return answer(response, callback, 200, "text/plain; version=0.0.4; charset=utf-8", prometheus.scrape());
          }
          return answer(response, callback, 404, "text/plain", "metrics are not exported by this instance\n");
        default:
          return answer(response, callback, 404, "text/plain", "not found; try /healthz, /readyz or /metrics\n");
      }
    }

    private static boolean probe(Response response, Callback callback, Check check) {
      return answer(response, callback, check.ok() ? 200 : 503, "text/plain", check.reason() + "\n");
    }

    private static boolean answer(Response response, Callback callback, int status, String type, String body) {
      response.setStatus(status);
      response.getHeaders().put(HttpHeader.CONTENT_TYPE, type);
      Content.Sink.write(response, true, body, callback);
      return true;
    }
  }
}
