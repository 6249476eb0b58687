package io.gitfn.reconcile.registry;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;

/**
 * The two endpoints of a registry that {@link RegistryLookup} uses, in Jetty on 127.0.0.1: the manifest HEAD of
 * the OCI distribution API and a token realm. It records every request it gets, so tests can check their shape.
 *
 * <p>The realm grants a pull token for one repository, and only to {@link #USER} with {@link #PASSWORD}; the
 * registry takes only that repository's token.
 */
public final class FakeRegistry implements AutoCloseable {

  static final String USER = "pusher";
  static final String PASSWORD = "s3cret:pw";
  static final String SERVICE = "fake-registry";
  private static final Pattern MANIFEST = Pattern.compile("/v2/(.+)/manifests/([^/]+)");
  private static final Pattern PULL_SCOPE = Pattern.compile("repository:([^:]+):pull");

  enum Auth { NONE, BASIC, BEARER }

  /** One request as the registry saw it. */
  public record Seen(String method, String path, String query, String accept, String authorization) {}

  private final Server server = new Server();
  private final ServerConnector connector = new ServerConnector(server);
  private final Set<String> images = ConcurrentHashMap.newKeySet();
  private final List<Seen> seen = new CopyOnWriteArrayList<>();
  private final CountDownLatch closing = new CountDownLatch(1);
  private volatile Auth auth = Auth.NONE;
  private volatile int failure;
  private volatile boolean slow;
  private volatile String tokenField = "token";
  private volatile String realmHost = "127.0.0.1";
  private volatile String oddToken;

  private FakeRegistry() {
    connector.setHost("127.0.0.1");
    connector.setPort(0);
    server.addConnector(connector);
    ServletContextHandler context = new ServletContextHandler();
    context.setContextPath("/");
    context.addServlet(new ServletHolder(new Endpoints()), "/*");
    server.setHandler(context);
  }

  public static FakeRegistry start() throws Exception {
    FakeRegistry registry = new FakeRegistry();
    registry.server.start();
    return registry;
  }

  /** host:port, as an image names its registry. */
  public String host() {
    return "127.0.0.1:" + connector.getLocalPort();
  }

  public FakeRegistry holding(String repository, String tag) {
    images.add(repository + ":" + tag);
    return this;
  }

  FakeRegistry requiring(Auth required) {
    auth = required;
    return this;
  }

  FakeRegistry failingWith(int status) {
    failure = status;
    return this;
  }

  /** Manifest requests wait until the registry is closed. */
  FakeRegistry answeringSlowly() {
    slow = true;
    return this;
  }

  /** The realm answers {@code {"access_token": …}}, as OAuth2 servers do, instead of {@code {"token": …}}. */
  FakeRegistry answeringAccessToken() {
    tokenField = "access_token";
    return this;
  }

  /** The realm answers this token, whatever the scope. */
  FakeRegistry answeringToken(String token) {
    oddToken = token;
    return this;
  }

  /** The realm the bearer challenge names: the same server, under another host name. */
  FakeRegistry namingRealmHost(String host) {
    realmHost = host;
    return this;
  }

  public List<Seen> requests() {
    return List.copyOf(seen);
  }

  static String basic(String user, String password) {
    return "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
  }

  static String tokenFor(String repository) {
    return "pull-token-for-" + repository;
  }

  @Override
  public void close() throws Exception {
    closing.countDown();
    server.stop();
  }

  private final class Endpoints extends HttpServlet {

    @Override
    protected void service(HttpServletRequest request, HttpServletResponse response) throws IOException {
      seen.add(new Seen(request.getMethod(), request.getRequestURI(), request.getQueryString(),
          request.getHeader("Accept"), request.getHeader("Authorization")));
      Matcher manifest = MANIFEST.matcher(request.getRequestURI());
      if (request.getRequestURI().equals("/token") && request.getMethod().equals("GET")) {
        token(request, response);
      } else if (manifest.matches() && request.getMethod().equals("HEAD")) {
        manifest(manifest.group(1), manifest.group(2), request, response);
      } else {
        response.setStatus(405);
      }
    }

    private void manifest(String repository, String tag, HttpServletRequest request, HttpServletResponse response)
        throws IOException {
      if (slow) {
        awaitClosing();
      }
      if (failure != 0) {
        response.setStatus(failure);
        return;
      }
      String authorization = request.getHeader("Authorization");
      if (auth == Auth.BASIC && !basic(USER, PASSWORD).equals(authorization)) {
        response.setHeader("WWW-Authenticate", "Basic realm=\"fake registry\"");
        response.setStatus(401);
        return;
      }
      if (auth == Auth.BEARER && !("Bearer " + tokenFor(repository)).equals(authorization)) {
        String realm = "http://" + realmHost + ":" + request.getLocalPort() + "/token";
        response.setHeader("WWW-Authenticate", "Bearer realm=\"" + realm + "\",service=\"" + SERVICE
            + "\",scope=\"repository:" + repository + ":pull\"");
        response.setStatus(401);
        return;
      }
      if (!images.contains(repository + ":" + tag)) {
        response.setStatus(404);
        return;
      }
      response.setContentType("application/vnd.docker.distribution.manifest.v2+json");
      response.setHeader("Docker-Content-Digest", "sha256:" + "0".repeat(64));
      response.setStatus(200);
    }

    private void token(HttpServletRequest request, HttpServletResponse response) throws IOException {
      if (!basic(USER, PASSWORD).equals(request.getHeader("Authorization"))) {
        response.setStatus(401);
        return;
      }
      Matcher scope = PULL_SCOPE.matcher(String.valueOf(request.getParameter("scope")));
      if (!SERVICE.equals(request.getParameter("service")) || !scope.matches()) {
        response.setStatus(403);
        return;
      }
      response.setContentType("application/json");
      String token = oddToken != null ? oddToken.replace("\n", "\\n") : tokenFor(scope.group(1));
      response.getWriter().write("{\"" + tokenField + "\":\"" + token + "\",\"expires_in\":300}");
    }

    private void awaitClosing() {
      try {
        closing.await(30, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
