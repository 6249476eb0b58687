package io.gitfn.local;

import static org.assertj.core.api.Assertions.assertThat;

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

  @Test
  void theDashboardAnswersUnderItsReservedPathWithLinksThatStayThere() throws Exception {
    LocalState state = new LocalState(java.time.Clock.systemUTC());
    state.following("/work/functions", null, ".");
    state.applied("folder@0a1b2c3d4e5f", java.util.Optional.empty(), java.util.List.of());
    try (Proxy proxy = Proxy.start("127.0.0.1", 0, io.gitfn.dashboard.DashboardServer.pages(Proxy.DASHBOARD, state,
        (namespace, name) -> java.util.List.of(), (namespace, job, whole) -> null, java.util.Optional.empty()))) {
      String overview = get(proxy, "localhost", "/_gitfn/");

      assertThat(overview).startsWith("HTTP/1.1 200 ")
          .contains("href=\"/_gitfn/repositories/local/up\"").contains("href=\"/_gitfn/static/dashboard.css\"");
      assertThat(get(proxy, "localhost", "/_gitfn")).startsWith("HTTP/1.1 200 ");
      assertThat(get(proxy, "localhost", "/_gitfn/static/dashboard.css")).startsWith("HTTP/1.1 200 ");
      assertThat(get(proxy, "localhost", "/_gitfn/repositories/local/up")).startsWith("HTTP/1.1 200 ")
          .contains("folder@0a1b2c3d4e5f");
      assertThat(get(proxy, "localhost", "/_gitfnx/")).as("not the dashboard, and no Function").startsWith(
          "HTTP/1.1 404 ");
      assertThat(get(proxy, "attacker.example", "/_gitfn/")).as("DNS rebinding").startsWith("HTTP/1.1 421 ");
    }
  }

  private static String statusLine(Proxy proxy, String host) throws Exception {
    return get(proxy, host, "/hello").lines().findFirst().orElse("");
  }

  private static String get(Proxy proxy, String host, String path) throws Exception {
    try (Socket socket = new Socket("127.0.0.1", proxy.port())) {
      socket.getOutputStream().write(("GET " + path + " HTTP/1.1\r\nHost: " + host + "\r\nConnection: close\r\n\r\n")
          .getBytes(StandardCharsets.US_ASCII));
      return new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    }
  }
}
