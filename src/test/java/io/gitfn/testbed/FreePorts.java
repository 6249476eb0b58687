package io.gitfn.testbed;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;

/** Free TCP ports on loopback, for servers that must be told their port before they start. */
public final class FreePorts {

  private FreePorts() {}

  public static int next() {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      socket.setReuseAddress(true);
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException("no free port on 127.0.0.1", e);
    }
  }

  /** {@code 127.0.0.1:<port>} where nothing listens: a connection to it is refused at once. */
  public static String closedAddress() {
    return "127.0.0.1:" + next();
  }
}
