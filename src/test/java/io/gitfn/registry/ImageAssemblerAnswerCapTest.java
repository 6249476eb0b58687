package io.gitfn.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A hostile registry, as a tenant can name one with {@code runtimeImageOverride}: its token endpoint or its manifest
 * answers with an endless body. The controller's assembler ({@link ImageAssembler#boundedAnswers}) stops reading at
 * its cap and says so; the registry is never read much past it. The server here is the hostile party: what it
 * sends is the input under test, not a stand-in for a registry's behaviour.
 */
class ImageAssemblerAnswerCapTest {

  /** What the hostile server would send if the reader never stopped. */
  private static final long ENDLESS = 256L * 1024 * 1024;

  private final AtomicLong sent = new AtomicLong();
  private final ExecutorService pool = Executors.newFixedThreadPool(2);
  private Server server;
  private String host;

  /** What the hostile registry answers to a GET or HEAD of {@code path}. */
  private interface Answers {
    void answer(String path, HttpServletResponse response) throws IOException;
  }

  private void start(Answers answers) throws Exception {
    server = new Server();
    ServerConnector connector = new ServerConnector(server);
    connector.setHost("127.0.0.1");
    connector.setPort(0);
    server.addConnector(connector);
    ServletContextHandler context = new ServletContextHandler();
    context.setContextPath("/");
    context.addServlet(new ServletHolder(new HttpServlet() {
      @Override
      protected void service(HttpServletRequest request, HttpServletResponse response) throws IOException {
        answers.answer(request.getRequestURI(), response);
      }
    }), "/*");
    server.setHandler(context);
    server.start();
    host = "127.0.0.1:" + connector.getLocalPort();
  }

  @AfterEach
  void stop() throws Exception {
    if (server != null) {
      server.stop();
    }
    pool.shutdownNow();
  }

  @Test
  void anEndlessTokenFromTheRealmARegistryNamesIsReadOnlyUpToTheCap() throws Exception {
    start((path, response) -> {
      if (path.equals("/token")) {
        endless(response, "{\"token\": \"");
      } else {
        response.setHeader("WWW-Authenticate", "Bearer realm=\"http://" + host + "/token\",service=\"hostile\"");
        respond(response, 401, "{\"errors\": []}");
      }
    });

    assertThatThrownBy(() -> assembler().find(ImageName.parse(host + "/team/base:1")))
        .isInstanceOf(RegistryFailure.class)
        .hasMessageContaining("larger than gitfn's cap of " + ImageAssembler.MAX_ANSWER_BYTES + " bytes");
    assertThat(sent.get()).as("bytes the reader let the registry send").isLessThan(4 * ImageAssembler.MAX_ANSWER_BYTES);
  }

  @Test
  void anEndlessManifestIsReadOnlyUpToTheCap() throws Exception {
    start((path, response) -> {
      if (path.equals("/v2/")) {
        respond(response, 200, "{}");
      } else {
        response.setContentType("application/vnd.oci.image.manifest.v1+json");
        endless(response, "{\"schemaVersion\": 2, \"mediaType\": \"application/vnd.oci.image.manifest.v1+json\","
            + " \"annotations\": {\"a\": \"");
      }
    });

    assertThatThrownBy(() -> assembler().assemble(ImageName.parse(host + "/team/gitfn-dependencies:deps-1"),
        List.of(), config -> config, ImageName.parse(host + "/team/orders:1")))
        .isInstanceOf(RegistryFailure.class)
        .hasMessageContaining("larger than gitfn's cap of " + ImageAssembler.MAX_ANSWER_BYTES + " bytes");
    assertThat(sent.get()).as("bytes the reader let the registry send").isLessThan(4 * ImageAssembler.MAX_ANSWER_BYTES);
  }

  private ImageAssembler assembler() {
    return ImageAssembler.boundedAnswers(RegistryAccess.anonymous(Set.of(host)), "gitfn-test", pool,
        Duration.ofSeconds(20));
  }

  /** A 200 whose body starts with {@code start} and goes on until the reader hangs up or {@link #ENDLESS} is sent. */
  private void endless(HttpServletResponse response, String start) throws IOException {
    response.setStatus(200); // no length: chunked, so there is nothing to refuse up front
    byte[] chunk = "a".repeat(64 * 1024).getBytes(StandardCharsets.US_ASCII);
    try {
      OutputStream out = response.getOutputStream();
      out.write(start.getBytes(StandardCharsets.UTF_8));
      while (sent.get() < ENDLESS) {
        out.write(chunk);
        out.flush();
        sent.addAndGet(chunk.length);
      }
    } catch (IOException hungUp) {
      // the reader stopped: what this test wants
    }
  }

  private static void respond(HttpServletResponse response, int status, String body) throws IOException {
    response.setStatus(status);
    response.setContentType("application/json");
    response.getOutputStream().write(body.getBytes(StandardCharsets.UTF_8));
  }
}
