package io.gitfn.trigger.webhook;

import java.net.URI;
import java.time.Duration;
import org.eclipse.jetty.server.NetworkConnectionLimit;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.handler.ContextHandler;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * A Jetty server with only the webhook receiver, at {@code /hooks/*}: the controller's, and those of tests and
 * benchmarks. Whoever can reach the port can send to it, so it is bounded: at most {@link #MAX_CONNECTIONS}
 * connections, {@link #MAX_THREADS} threads, and a connection that sends nothing for {@link #IDLE_TIMEOUT} is
 * closed. The receiver bounds the rest (bodies, slots, read time).
 */
public final class WebhookServer implements AutoCloseable {

  static final int MAX_CONNECTIONS = 256;
  static final int MAX_THREADS = 32;
  static final Duration IDLE_TIMEOUT = Duration.ofSeconds(5);

  private final Server server;
  private final URI baseUri;

  private WebhookServer(Server server, URI baseUri) {
    this.server = server;
    this.baseUri = baseUri;
  }

  /** Starts serving {@code receiver} on {@code host:port}; port 0 takes a free one. */
  public static WebhookServer start(String host, int port, WebhookReceiver receiver) throws Exception {
    QueuedThreadPool threads = new QueuedThreadPool(MAX_THREADS, 2);
    threads.setName("gitfn-webhook");
    Server server = new Server(threads);
    ServerConnector connector = new ServerConnector(server);
    connector.setHost(host);
    connector.setPort(port);
    connector.setIdleTimeout(IDLE_TIMEOUT.toMillis());
    server.addConnector(connector);
    // Past the limit the server stops accepting until a connection closes; the kernel's backlog holds the rest.
    server.addBean(new NetworkConnectionLimit(MAX_CONNECTIONS, server));
    server.setHandler(new ContextHandler(receiver, "/hooks"));
    try {
      server.start();
    } catch (Exception e) {
      server.stop();
      throw e;
    }
    String authority = host.contains(":") ? "[" + host + "]" : host;
    return new WebhookServer(server, URI.create("http://" + authority + ":" + connector.getLocalPort() + "/hooks/"));
  }

  /** Where the receiver listens, ending in {@code /hooks/}: {@code baseUri().resolve("github")}. */
  public URI baseUri() {
    return baseUri;
  }

  @Override
  public void close() throws Exception {
    server.stop();
  }
}
