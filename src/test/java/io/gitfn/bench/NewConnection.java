package io.gitfn.bench;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;

/**
 * One GET on a connection of its own, closed after the answer, as a new user of a Service makes it. A client that
 * keeps its connections open stays on the Pod it reached until that Pod closes them, which after a rollout is the
 * old Pod's drain, not the Service's routing: this is what measures where the Service sends new traffic.
 */
final class NewConnection {

  private static final int TIMEOUT_MILLIS = 2_000;
  private static final int MAX_ANSWER_BYTES = 64 * 1024;

  private NewConnection() {}

  /** The body of a 200 answer, or null for any other answer or none. */
  static String get(URI url) {
    int port = url.getPort() == -1 ? 80 : url.getPort();
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress(url.getHost(), port), TIMEOUT_MILLIS);
      socket.setSoTimeout(TIMEOUT_MILLIS);
      String path = url.getRawPath() == null || url.getRawPath().isEmpty() ? "/" : url.getRawPath();
      socket.getOutputStream().write(("GET " + path + " HTTP/1.1\r\nHost: " + url.getHost()
          + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
      String answer = readAll(socket.getInputStream());
      int headersEnd = answer.indexOf("\r\n\r\n");
      if (!answer.startsWith("HTTP/1.1 200 ") || headersEnd < 0) {
        return null;
      }
      return answer.substring(headersEnd + 4);
    } catch (IOException e) {
      return null;
    }
  }

  // The runtime answers a handler's string with a Content-Length and closes as asked, so the body is what is left.
  private static String readAll(InputStream in) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    byte[] buffer = new byte[4096];
    for (int n; (n = in.read(buffer)) != -1 && out.size() < MAX_ANSWER_BYTES; ) {
      out.write(buffer, 0, n);
    }
    return out.toString(StandardCharsets.UTF_8);
  }
}
