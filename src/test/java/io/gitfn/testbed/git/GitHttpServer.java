package io.gitfn.testbed.git;

import io.gitfn.testbed.UserAgents;
import jakarta.servlet.http.HttpServletRequest;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.ee10.servlet.security.ConstraintMapping;
import org.eclipse.jetty.ee10.servlet.security.ConstraintSecurityHandler;
import org.eclipse.jetty.security.Constraint;
import org.eclipse.jetty.security.HashLoginService;
import org.eclipse.jetty.security.UserStore;
import org.eclipse.jetty.security.authentication.BasicAuthenticator;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.security.Credential;
import org.eclipse.jgit.http.server.GitServlet;
import org.eclipse.jgit.transport.resolver.FileResolver;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A smart-HTTP Git server: JGit's {@link GitServlet} in embedded Jetty on 127.0.0.1, serving the
 * bare repositories in one directory to one user with HTTP basic auth.
 */
public final class GitHttpServer implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(GitHttpServer.class);
  private static final String ROLE = "git";

  private final Server server;
  private final int port;
  private final HttpCredentials credentials;
  private final RequestCounts requests;

  private GitHttpServer(Server server, int port, HttpCredentials credentials, RequestCounts requests) {
    this.server = server;
    this.port = port;
    this.credentials = credentials;
    this.requests = requests;
  }

  /** Starts a server on a free port that serves {@code <baseDirectory>/<repo>.git}. */
  public static GitHttpServer start(Path baseDirectory, HttpCredentials credentials)
      throws Exception {
    long started = System.nanoTime();
    Server server = new Server();
    ServerConnector connector = new ServerConnector(server);
    connector.setHost("127.0.0.1");
    connector.setPort(0);
    server.addConnector(connector);
    RequestCounts requests = new RequestCounts(gitContext(baseDirectory, credentials));
    server.setHandler(requests);
    try {
      server.start();
    } catch (Exception e) {
      server.stop();
      throw e;
    }
    GitHttpServer http = new GitHttpServer(server, connector.getLocalPort(), credentials, requests);
    LOG.info(
        "Git HTTP server on port {} for {} started in {} ms",
        http.port,
        baseDirectory,
        (System.nanoTime() - started) / 1_000_000);
    return http;
  }

  private static ServletContextHandler gitContext(
      Path baseDirectory, HttpCredentials credentials) {
    GitServlet git = new GitServlet();
    git.setRepositoryResolver(new FileResolver<HttpServletRequest>(baseDirectory.toFile(), true));
    ServletContextHandler context = new ServletContextHandler(ServletContextHandler.SECURITY);
    context.setContextPath("/");
    context.addServlet(new ServletHolder("git", git), "/git/*");
    context.setSecurityHandler(basicAuth(credentials));
    return context;
  }

  /** Counts requests before they reach authentication, so a 401 challenge counts as the request it is. */
  private static final class RequestCounts extends Handler.Wrapper {

    private final Map<String, LongAdder> counts = new ConcurrentHashMap<>();

    RequestCounts(Handler handler) {
      super(handler);
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
      String product = product(request);
      counts.computeIfAbsent(product + " " + request.getMethod() + " " + kind(request), k -> new LongAdder())
          .increment();
      LongAdder bytes = counts.computeIfAbsent(product + " response bytes", k -> new LongAdder());
      return super.handle(request, new Response.Wrapper(request, response) {
        @Override
        public void write(boolean last, ByteBuffer content, Callback done) {
          bytes.add(content == null ? 0 : content.remaining());
          super.write(last, content, done);
        }
      }, callback);
    }

    private static String product(Request request) {
      return UserAgents.product(request.getHeaders().get(HttpHeader.USER_AGENT));
    }

    private static String kind(Request request) {
      String path = request.getHttpURI().getPath();
      return path.endsWith("/info/refs") ? "info/refs" : path.substring(path.lastIndexOf('/') + 1);
    }

    Map<String, Long> snapshot() {
      Map<String, Long> copy = new TreeMap<>();
      counts.forEach((k, v) -> copy.put(k, v.sum()));
      return copy;
    }
  }

  // Container auth, not a filter: JGit enables receive-pack only for a request with a remote user.
  private static ConstraintSecurityHandler basicAuth(HttpCredentials credentials) {
    UserStore users = new UserStore();
    users.addUser(
        credentials.username(),
        Credential.getCredential(credentials.password()),
        new String[] {ROLE});
    HashLoginService login = new HashLoginService("gitfn test Git");
    login.setUserStore(users);

    ConstraintMapping everything = new ConstraintMapping();
    everything.setPathSpec("/*");
    everything.setConstraint(Constraint.from(ROLE));

    ConstraintSecurityHandler security = new ConstraintSecurityHandler();
    security.setLoginService(login);
    security.setAuthenticator(new BasicAuthenticator());
    security.addConstraintMapping(everything);
    return security;
  }

  /** The clone URL of {@code repo}, without credentials. */
  public String url(String repo) {
    return "http://127.0.0.1:" + port + "/git/" + repo + ".git";
  }

  public int port() {
    return port;
  }

  /**
   * Every request served so far, by client and kind: {@code "JGit GET info/refs"}, {@code "go-git POST
   * git-upload-pack"}, and the bytes of the answers' bodies by client: {@code "JGit response bytes"}. The client is
   * the User-Agent's product name, so that two controllers polling the same server are counted apart.
   */
  public Map<String, Long> requests() {
    return requests.snapshot();
  }

  public HttpCredentials credentials() {
    return credentials;
  }

  @Override
  public void close() throws Exception {
    server.stop();
  }
}
