package io.gitfn.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The local proxy answers only requests addressed to localhost, as a browser's DNS-rebinding page would not be. */
class ProxyTest {

  @Test
  void aRequestForAnotherHostNameIsRefusedAndOneForLocalhostIsServed() throws Exception {
    try (Proxy proxy = Proxy.start("127.0.0.1", 0)) {
      assertThat(statusLine(proxy, "attacker.example:" + proxy.port())).contains(" 421 ");
      assertThat(statusLine(proxy, "localhost:" + proxy.port())).as("no Function serves /, but it is asked")
          .contains(" 404 ");
      assertThat(statusLine(proxy, "127.0.0.1:" + proxy.port())).contains(" 404 ");
    }
  }

  private static String statusLine(Proxy proxy, String host) throws Exception {
    try (Socket socket = new Socket("127.0.0.1", proxy.port())) {
      socket.getOutputStream().write(("GET /hello HTTP/1.1\r\nHost: " + host + "\r\nConnection: close\r\n\r\n")
          .getBytes(StandardCharsets.US_ASCII));
      return new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII)).readLine();
    }
  }
}
