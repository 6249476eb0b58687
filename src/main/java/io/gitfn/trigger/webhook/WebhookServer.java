package io.gitfn.trigger.webhook;

import java.net.URI;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.handler.ContextHandler;

/**
 * A Jetty server with only the webhook receiver, at {@code /hooks/*}. The controller mounts the receiver on its
 * own server instead; this one serves tests, benchmarks and local mode.
 */
public final class WebhookServer implements AutoCloseable {

  private final Server server;
  private final URI baseUri;

  private WebhookServer(Server server, URI baseUri) {
    this.server = server;
    this.baseUri = baseUri;
  }

  /** Starts serving {@code receiver} on {@code host:port}; port 0 takes a free one. */
  public static WebhookServer start(String host, int port, WebhookReceiver receiver) throws Exception {
    Server server = new Server();
    ServerConnector connector = new ServerConnector(server);
    connector.setHost(host);
    connector.setPort(port);
    server.addConnector(connector);
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
