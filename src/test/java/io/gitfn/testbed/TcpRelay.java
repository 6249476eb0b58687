package io.gitfn.testbed;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A TCP relay on 127.0.0.1 that pipes bytes both ways to one server, and can be cut and restored: a network path
 * that breaks under a client while the server itself keeps running. TLS passes through untouched, so the client
 * must trust the server's certificate for 127.0.0.1.
 *
 * <p>{@link #cut} closes the listener and every open connection: a new connection is refused at once, as from a
 * host whose port is closed. {@link #restore} listens again on the same port.
 */
public final class TcpRelay implements AutoCloseable {

  private final InetSocketAddress target;
  private final int port;
  private final Set<Socket> open = ConcurrentHashMap.newKeySet();
  private final AtomicInteger accepted = new AtomicInteger();
  private volatile ServerSocket listener;

  private TcpRelay(InetSocketAddress target, int port) {
    this.target = target;
    this.port = port;
  }

  /** A relay to {@code host:port} on a free port of 127.0.0.1, listening. */
  public static TcpRelay start(String host, int port) {
    TcpRelay relay = new TcpRelay(new InetSocketAddress(host, port), FreePorts.next());
    relay.restore();
    return relay;
  }

  /** The port the relay listens on, on 127.0.0.1. */
  public int port() {
    return port;
  }

  /** Connections accepted so far, for a test that wants to see that its client went through the relay. */
  public int accepted() {
    return accepted.get();
  }

  /** Whether the relay listens now. */
  public boolean listening() {
    ServerSocket current = listener;
    return current != null && !current.isClosed();
  }

  /** Closes the listener and every connection through it; connecting is refused until {@link #restore}. */
  public synchronized void cut() {
    ServerSocket current = listener;
    listener = null;
    closeQuietly(current);
    for (Socket socket : open) {
      closeQuietly(socket);
    }
    open.clear();
  }

  /** Listens again on the same port; a no-op while it listens. */
  public synchronized void restore() {
    if (listening()) {
      return;
    }
    try {
      ServerSocket socket = new ServerSocket();
      socket.setReuseAddress(true); // the port's old connections may still be in TIME_WAIT
      socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 128);
      listener = socket;
      daemon("tcp-relay-accept-" + port, () -> accept(socket));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot listen on 127.0.0.1:" + port, e);
    }
  }

  private void accept(ServerSocket socket) {
    while (!socket.isClosed()) {
      Socket client;
      try {
        client = socket.accept();
      } catch (IOException e) {
        return; // cut
      }
      accepted.incrementAndGet();
      Socket server = new Socket();
      try {
        server.connect(target, 5_000);
      } catch (IOException e) {
        closeQuietly(client);
        closeQuietly(server);
        continue;
      }
      open.add(client);
      open.add(server);
      if (socket.isClosed()) { // cut while this one was being connected
        closeQuietly(client);
        closeQuietly(server);
        return;
      }
      pipe(client, server, "up");
      pipe(server, client, "down");
    }
  }

  private void pipe(Socket from, Socket to, String direction) {
    daemon("tcp-relay-" + port + "-" + direction, () -> {
      byte[] buffer = new byte[16 * 1024];
      try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
        int n;
        while ((n = in.read(buffer)) >= 0) {
          out.write(buffer, 0, n);
          out.flush();
        }
      } catch (IOException e) {
        // the other side or a cut closed it
      } finally {
        closeQuietly(from);
        closeQuietly(to);
        open.remove(from);
        open.remove(to);
      }
    });
  }

  private static void daemon(String name, Runnable body) {
    Thread thread = new Thread(body, name);
    thread.setDaemon(true);
    thread.start();
  }

  private static void closeQuietly(java.io.Closeable closeable) {
    if (closeable == null) {
      return;
    }
    try {
      closeable.close();
    } catch (IOException e) {
      // closing anyway
    }
  }

  @Override
  public void close() {
    cut();
  }
}
