package io.gitfn.server;

import java.net.URI;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * A Jetty server for a few requests at a time, on one address: the health and metrics endpoints and the dashboard.
 * One acceptor, one selector and a handful of threads instead of Jetty's 200, which such a server never needs.
 *
 * @param baseUri where it listens, ending in {@code /}
 */
public record SmallServer(Server server, URI baseUri) implements AutoCloseable {

  /**
   * Starts {@code handler} on {@code host:port} (port 0 takes a free one), or says which {@code what} could not.
   *
   * @param threads the most threads it may use, acceptor and selector included
   */
  public static SmallServer start(String name, int threads, String host, int port, Handler handler, String what)
      throws Exception {
    QueuedThreadPool pool = new QueuedThreadPool(threads, 1);
    pool.setName(name);
    Server server = new Server(pool);
    ServerConnector connector = new ServerConnector(server, 1, 1);
    connector.setHost(host);
    connector.setPort(port);
    server.addConnector(connector);
    server.setHandler(handler);
    try {
      server.start();
    } catch (Exception e) {
      server.stop();
      throw new IllegalStateException("cannot serve " + what + " on " + host + ":" + port + ": " + e.getMessage(), e);
    }
    String authority = host.contains(":") ? "[" + host + "]" : host;
    return new SmallServer(server, URI.create("http://" + authority + ":" + connector.getLocalPort() + "/"));
  }

  @Override
  public void close() throws Exception {
    server.stop();
  }
}
