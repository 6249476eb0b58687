package io.gitfn.testbed.git;

import jakarta.servlet.http.HttpServletRequest;
import java.nio.file.Path;
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

  private GitHttpServer(Server server, int port, HttpCredentials credentials) {
    this.server = server;
    this.port = port;
    this.credentials = credentials;
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
    server.setHandler(gitContext(baseDirectory, credentials));
    try {
      server.start();
    } catch (Exception e) {
      server.stop();
      throw e;
    }
    GitHttpServer http = new GitHttpServer(server, connector.getLocalPort(), credentials);
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

  public HttpCredentials credentials() {
    return credentials;
  }

  @Override
  public void close() throws Exception {
    server.stop();
  }
}
