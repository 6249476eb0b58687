package io.gitfn.testbed.git;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A Git server as a hostile tenant runs one, on loopback: it accepts smart-HTTP requests for any repository and
 * answers with a ref advertisement that never ends, either a byte every {@code interval} ({@link #trickling}), so
 * that no read ever waits long enough for a client's read timeout, or as fast as it can ({@link #flooding}), with
 * a new branch on every line.
 */
public final class HostileGitServer implements AutoCloseable {

  private final ServerSocket socket;
  private final Duration interval; // zero: flood
  private final ExecutorService connections = Executors.newCachedThreadPool(r -> {
    Thread t = new Thread(r, "trickling-git-server");
    t.setDaemon(true);
    return t;
  });
  private final CopyOnWriteArrayList<Socket> open = new CopyOnWriteArrayList<>();
  private final AtomicInteger requests = new AtomicInteger();

  private HostileGitServer(ServerSocket socket, Duration interval) {
    this.socket = socket;
    this.interval = interval;
  }

  /** Sends one byte every {@code interval}. */
  public static HostileGitServer trickling(Duration interval) throws IOException {
    return start(interval);
  }

  /** Sends branches without end, as fast as the client reads. */
  public static HostileGitServer flooding() throws IOException {
    return start(Duration.ZERO);
  }

  private static HostileGitServer start(Duration interval) throws IOException {
    HostileGitServer server = new HostileGitServer(new ServerSocket(0, 50, InetAddress.getLoopbackAddress()),
        interval);
    server.connections.execute(server::accept);
    return server;
  }

  /** The URL of a repository on this server; every name answers the same way. */
  public String url(String repository) {
    return "http://127.0.0.1:" + socket.getLocalPort() + "/" + repository + ".git";
  }

  /** The connections a client still holds open. */
  public int openConnections() {
    return open.size();
  }

  /** How many requests it has taken. */
  public int requests() {
    return requests.get();
  }

  private void accept() {
    while (!socket.isClosed()) {
      try {
        Socket client = socket.accept();
        open.add(client);
        connections.execute(() -> trickle(client));
      } catch (IOException e) {
        return; // closed
      }
    }
  }

  private void trickle(Socket client) {
    try (client; InputStream in = client.getInputStream(); OutputStream out = client.getOutputStream()) {
      readHeaders(in);
      requests.incrementAndGet();
      out.write(("HTTP/1.1 200 OK\r\nContent-Type: application/x-git-upload-pack-advertisement\r\n"
          + "Cache-Control: no-cache\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
      out.flush();
      if (interval.isZero()) {
        out.write(pkt("# service=git-upload-pack\n"));
        out.write("0000".getBytes(StandardCharsets.US_ASCII));
        flood(out);
      } else {
        // The start of a pkt-line, a byte at a time, for ever.
        byte[] line = "001e# service=git-upload-pack\n".getBytes(StandardCharsets.US_ASCII);
        for (int i = 0; !client.isClosed(); i = (i + 1) % line.length) {
          out.write(line[i]);
          out.flush();
          Thread.sleep(interval.toMillis());
        }
      }
    } catch (IOException | InterruptedException e) {
      // the client gave up, or the server closed
    } finally {
      open.remove(client);
    }
  }

  /**
   * A protocol v0 advertisement as {@code git-upload-pack} starts it over SSH, {@code <sha> refs/heads/bN} lines
   * without end; over smart HTTP the service line and a flush come first.
   */
  static void flood(OutputStream out) throws IOException {
    String sha = "1234567890123456789012345678901234567890";
    out.write(pkt(sha + " HEAD\0multi_ack side-band-64k ofs-delta\n"));
    for (long i = 0; ; i++) {
      out.write(pkt(sha + " refs/heads/b" + i + "\n"));
    }
  }

  private static byte[] pkt(String line) {
    return (String.format("%04x", line.length() + 4) + line).getBytes(StandardCharsets.US_ASCII);
  }

  private static void readHeaders(InputStream in) throws IOException {
    int matched = 0;
    byte[] end = {'\r', '\n', '\r', '\n'};
    while (matched < end.length) {
      int b = in.read();
      if (b < 0) {
        throw new IOException("the request ended before its headers did");
      }
      matched = b == end[matched] ? matched + 1 : (b == '\r' ? 1 : 0);
    }
  }

  @Override
  public void close() throws IOException {
    socket.close();
    for (Socket client : open) {
      client.close();
    }
    connections.shutdownNow();
  }
}
