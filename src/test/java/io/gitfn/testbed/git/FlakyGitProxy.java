package io.gitfn.testbed.git;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A TCP proxy in front of a real Git server whose behaviour a test switches, so that one repository URL goes
 * down, turns slow and comes back: {@link Mode#UP} passes bytes both ways, {@link Mode#DOWN} closes each
 * connection as it is accepted, {@link Mode#SLOW} reads the request and answers one byte of an HTTP response
 * every {@code interval}, for ever. It counts the connections each mode took.
 */
public final class FlakyGitProxy implements AutoCloseable {

  /** What the proxy does with the next connection. */
  public enum Mode { UP, DOWN, SLOW }

  private final ServerSocket socket;
  private final InetSocketAddress target;
  private final Duration interval;
  private volatile Mode mode = Mode.UP;
  private final Map<Mode, AtomicInteger> connections = new ConcurrentHashMap<>();
  private final CopyOnWriteArrayList<Socket> open = new CopyOnWriteArrayList<>();
  private final ExecutorService threads = Executors.newCachedThreadPool(r -> {
    Thread t = new Thread(r, "flaky-git-proxy");
    t.setDaemon(true);
    return t;
  });

  private FlakyGitProxy(ServerSocket socket, InetSocketAddress target, Duration interval) {
    this.socket = socket;
    this.target = target;
    this.interval = interval;
    for (Mode m : Mode.values()) {
      connections.put(m, new AtomicInteger());
    }
  }

  /** A proxy on a free loopback port for the server behind {@code serverUrl} (any URL on it). */
  public static FlakyGitProxy in(String serverUrl, Duration slowInterval) throws IOException {
    URI uri = URI.create(serverUrl);
    FlakyGitProxy proxy = new FlakyGitProxy(new ServerSocket(0, 50, InetAddress.getLoopbackAddress()),
        new InetSocketAddress(uri.getHost(), uri.getPort()), slowInterval);
    proxy.threads.execute(proxy::accept);
    return proxy;
  }

  /** {@code serverUrl} with the proxy's host and port in place of the server's. */
  public String url(String serverUrl) {
    URI uri = URI.create(serverUrl);
    return uri.getScheme() + "://" + (uri.getUserInfo() == null ? "" : uri.getUserInfo() + "@") + "127.0.0.1:"
        + socket.getLocalPort() + uri.getRawPath();
  }

  /**
   * Switches mode and cuts every open connection, so that nothing goes on in the old one: Git's HTTP client keeps
   * connections alive between requests, and one left open would carry the next check past a server that is down.
   */
  public void mode(Mode next) {
    mode = next;
    for (Socket client : open) {
      close(client);
    }
  }

  /** How many connections the proxy took while in {@code mode}. */
  public int connections(Mode in) {
    return connections.get(in).get();
  }

  private void accept() {
    while (!socket.isClosed()) {
      try {
        Socket client = socket.accept();
        Mode now = mode;
        connections.get(now).incrementAndGet();
        switch (now) {
          case DOWN -> close(client);
          case SLOW -> {
            open.add(client);
            threads.execute(() -> trickle(client));
          }
          case UP -> threads.execute(() -> forward(client));
        }
      } catch (IOException e) {
        return; // closed
      }
    }
  }

  private void forward(Socket client) {
    open.add(client);
    try (client; Socket server = new Socket(target.getAddress(), target.getPort())) {
      threads.execute(() -> pipe(client, server));
      pipe(server, client);
    } catch (IOException e) {
      // either side went away
    } finally {
      open.remove(client);
    }
  }

  private static void pipe(Socket from, Socket to) {
    try {
      InputStream in = from.getInputStream();
      OutputStream out = to.getOutputStream();
      byte[] buffer = new byte[16 * 1024];
      int n;
      while ((n = in.read(buffer)) >= 0) {
        out.write(buffer, 0, n);
        out.flush();
      }
      to.shutdownOutput();
    } catch (IOException e) {
      close(from);
      close(to);
    }
  }

  private void trickle(Socket client) {
    try (client; OutputStream out = client.getOutputStream()) {
      byte[] response = ("HTTP/1.1 200 OK\r\nContent-Type: application/x-git-upload-pack-advertisement\r\n"
          + "Connection: close\r\n\r\n001e# service=git-upload-pack\n").getBytes(StandardCharsets.US_ASCII);
      for (int i = 0; !client.isClosed(); i = (i + 1) % response.length) {
        out.write(response[i]);
        out.flush();
        Thread.sleep(interval.toMillis());
      }
    } catch (IOException | InterruptedException e) {
      // the client gave up, or the proxy cut it
    } finally {
      open.remove(client);
    }
  }

  private static void close(Socket socket) {
    try {
      socket.close();
    } catch (IOException ignored) {
      // closing is all that was wanted
    }
  }

  @Override
  public void close() throws IOException {
    socket.close();
    open.forEach(FlakyGitProxy::close);
    threads.shutdownNow();
  }
}
