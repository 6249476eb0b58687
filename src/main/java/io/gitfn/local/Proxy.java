package io.gitfn.local;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.jetty.http.HttpURI;
import org.eclipse.jetty.proxy.ProxyHandler;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;

/**
 * The one address of local mode: {@code /<function>/...} and {@code /<namespace>/<function>/...} go to the
 * process that serves that Function now. {@link #route} switches a Function to another process atomically: new
 * requests go there, and requests already on their way finish on the old one, which {@link #drain} waits for.
 */
final class Proxy implements AutoCloseable {

  private static final String TARGET = Proxy.class.getName() + ".target";
  /** Where the dashboard is: no Function has this name, since a Kubernetes name has no underscore. */
  static final String DASHBOARD = "/_gitfn";

  /** A process behind the proxy, and how many requests it is serving now. */
  static final class Backend {
    final int port;
    final AtomicInteger inFlight = new AtomicInteger();

    Backend(int port) {
      this.port = port;
    }
  }

  private final Map<String, Backend> routes = new ConcurrentHashMap<>(); // namespace/name -> backend
  private final Server server;
  private final ServerConnector connector;
  private final boolean loopbackOnly;
  private final Handler dashboard;

  private Proxy(Server server, ServerConnector connector, boolean loopbackOnly, Handler dashboard) {
    this.server = server;
    this.connector = connector;
    this.loopbackOnly = loopbackOnly;
    this.dashboard = dashboard;
  }

  static Proxy start(String host, int port) throws LocalException {
    return start(host, port, new Handler.Abstract() {
      @Override
      public boolean handle(Request request, Response response, Callback callback) {
        Response.writeError(request, response, callback, 404, "this proxy serves no dashboard");
        return true;
      }
    });
  }

  /** @param dashboard what answers under {@value #DASHBOARD}: its paths in full */
  static Proxy start(String host, int port, Handler dashboard) throws LocalException {
    Server server = new Server();
    ServerConnector connector = new ServerConnector(server);
    connector.setHost(host);
    connector.setPort(port);
    server.addConnector(connector);
    Proxy proxy = new Proxy(server, connector, isLoopback(host), dashboard);
    dashboard.setServer(server); // a handler started outside the server's tree must still know its server
    server.addBean(dashboard);
    ProxyHandler.Reverse forward = new ProxyHandler.Reverse(request -> (HttpURI) request.getAttribute(TARGET));
    server.setHandler(new Handler.Wrapper(forward) {
      @Override
      public boolean handle(Request request, Response response, Callback callback) throws Exception {
        return proxy.handle(request, response, callback, getHandler());
      }
    });
    try {
      server.start();
    } catch (Exception e) {
      throw new LocalException("cannot listen on " + host + ":" + port + ": " + e.getMessage());
    }
    return proxy;
  }

  private static boolean isLoopback(String host) {
    String name = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
    return name.equalsIgnoreCase("localhost") || name.equals("::1") || name.startsWith("127.");
  }

  int port() {
    return connector.getLocalPort();
  }

  /** Sends the Function's new requests to {@code backend}; returns the backend it replaced, or null. */
  Backend route(String namespace, String name, Backend backend) {
    return routes.put(namespace + "/" + name, backend);
  }

  /** The Function gets no more requests; returns the backend it had, or null. */
  Backend unroute(String namespace, String name) {
    return routes.remove(namespace + "/" + name);
  }

  /** Waits until {@code backend} serves no request any more, or {@code limit} passed; returns true when idle. */
  static boolean drain(Backend backend, Duration limit) {
    Instant deadline = Instant.now().plus(limit);
    while (backend.inFlight.get() > 0 && Instant.now().isBefore(deadline)) {
      try {
        Thread.sleep(10);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return false;
      }
    }
    return backend.inFlight.get() == 0;
  }

  private boolean handle(Request request, Response response, Callback callback, Handler forward) throws Exception {
    String host = Request.getServerName(request);
    if (loopbackOnly && !isLoopback(host)) {
      // A web page the user opens could make the browser call a name that resolves to 127.0.0.1 (DNS rebinding);
      // the Host header still carries that name, so only loopback names get through.
      Response.writeError(request, response, callback, 421, "gitfn up serves localhost, not " + host);
      return true;
    }
    String path = request.getHttpURI().getPath();
    if (path.equals(DASHBOARD) || path.startsWith(DASHBOARD + "/")) {
      return dashboard.handle(request, response, callback);
    }
    List<String> segments = List.of(path.replaceFirst("^/", "").split("/", -1));
    Target target = find(segments);
    if (target == null) {
      Response.writeError(request, response, callback, 404, "no Function serves " + path + "; Functions: "
          + String.join(", ", routes.keySet().stream().sorted().toList()));
      return true;
    }
    String query = request.getHttpURI().getQuery();
    request.setAttribute(TARGET, HttpURI.build("http://127.0.0.1:" + target.backend.port + target.rest
        + (query == null ? "" : "?" + query)));
    target.backend.inFlight.incrementAndGet();
    Callback done = Callback.from(callback, target.backend.inFlight::decrementAndGet);
    boolean handled = forward.handle(request, response, done);
    if (!handled) {
      target.backend.inFlight.decrementAndGet();
    }
    return handled;
  }

  private record Target(Backend backend, String rest) {}

  /** {@code /<namespace>/<name>/rest} first, then {@code /<name>/rest} when one namespace has that name. */
  private Target find(List<String> segments) {
    if (segments.size() >= 2) {
      Backend qualified = routes.get(segments.get(0) + "/" + segments.get(1));
      if (qualified != null) {
        return new Target(qualified, rest(segments, 2));
      }
    }
    List<String> matches = routes.keySet().stream().filter(id -> id.endsWith("/" + segments.get(0))).toList();
    if (matches.size() == 1) {
      return new Target(routes.get(matches.get(0)), rest(segments, 1));
    }
    return null;
  }

  private static String rest(List<String> segments, int from) {
    return "/" + String.join("/", segments.subList(Math.min(from, segments.size()), segments.size()));
  }

  @Override
  public void close() throws Exception {
    server.stop();
  }
}
