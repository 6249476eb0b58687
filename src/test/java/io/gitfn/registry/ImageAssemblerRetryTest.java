package io.gitfn.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gitfn.testbed.FreePorts;
import com.google.cloud.tools.jib.api.RegistryUnauthorizedException;
import java.io.IOException;
import java.net.ConnectException;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import javax.net.ssl.SSLHandshakeException;
import org.apache.http.conn.ConnectTimeoutException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * Which registry failures {@link ImageAssembler#retryingUnreachable} makes again, and that it stops at its tries and
 * at the deadline. A real registry coming up late is ImageAssemblerIT's.
 */
class ImageAssemblerRetryTest {

  private static final ExecutorService POOL = Executors.newFixedThreadPool(2);

  @AfterAll
  static void stop() {
    POOL.shutdownNow();
  }

  @Test
  void aRegistryNotReachedOrWhoseConnectionBrokeIsUnreachable() {
    assertThat(failure(new ConnectException("Connection refused")).unreachable()).isTrue();
    assertThat(failure(new ConnectTimeoutException("Connect to 10.199.0.1:34115 failed: Connect timed out"))
        .unreachable()).as("jib's client (Apache HttpClient) on a connect timeout").isTrue();
    assertThat(failure(new SocketTimeoutException("Read timed out")).unreachable()).isTrue();
    assertThat(failure(new IOException("wrapped", new SocketException("Connection reset"))).unreachable()).isTrue();
  }

  @Test
  void aRegistryThatAnsweredANameThatDoesNotResolveOrABadCertificateIsNot() {
    assertThat(failure(new RegistryUnauthorizedException("registry.local", "team/app", null)).unreachable())
        .as("an answer").isFalse();
    assertThat(failure(new UnknownHostException("registry.locl")).unreachable()).as("a wrong name, most likely")
        .isFalse();
    assertThat(failure(new SSLHandshakeException("PKIX path building failed")).unreachable()).isFalse();
    assertThat(new RegistryFailure("did not finish within 10 s", null).unreachable()).isFalse();
  }

  @Test
  void anUnreachableRegistryIsTriedAsOftenAsAskedThenTheLastFailureIsThrown() throws IOException {
    String closed = FreePorts.closedAddress();
    List<String> warnings = new CopyOnWriteArrayList<>();
    ImageAssembler assembler = new ImageAssembler(RegistryAccess.anonymous(Set.of(closed)), "gitfn-test", POOL,
        Duration.ofSeconds(30)).retryingUnreachable(3, Duration.ofMillis(50), warnings::add);
    ImageName image = new ImageName(closed, "team-a/orders", "1");

    assertThatThrownBy(() -> assembler.find(image))
        .isInstanceOf(RegistryFailure.class)
        .hasMessageStartingWith("looking for " + image + ": ")
        .hasMessageContaining("Connection refused")
        .satisfies(e -> assertThat(((RegistryFailure) e).unreachable()).isTrue());
    assertThat(warnings).hasSize(2);
    assertThat(warnings.get(0)).endsWith("; trying again in 50 ms (try 2 of 3)");
    assertThat(warnings.get(1)).endsWith("; trying again in 100 ms (try 3 of 3)");
  }

  @Test
  void theDeadlineStopsTheRetriesAndItsMessageSaysWhatWasBeingRetried() throws IOException {
    String closed = FreePorts.closedAddress();
    List<String> warnings = new CopyOnWriteArrayList<>();
    ImageAssembler assembler = new ImageAssembler(RegistryAccess.anonymous(Set.of(closed)), "gitfn-test", POOL,
        Duration.ofSeconds(1)).retryingUnreachable(10, Duration.ofSeconds(5), warnings::add);
    ImageName image = new ImageName(closed, "team-a/orders", "1");
    long started = System.nanoTime();

    assertThatThrownBy(() -> assembler.find(image))
        .isInstanceOf(RegistryFailure.class)
        .hasMessageStartingWith("looking for " + image + ": did not finish within 1 s (looking for " + image)
        .hasMessageEndingWith("; trying again in 5 s (try 2 of 10))");
    assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(4));
    assertThat(warnings).hasSize(1);
  }

  @Test
  void withoutRetryingAnUnreachableRegistryFailsAtOnce() throws IOException {
    String closed = FreePorts.closedAddress();
    ImageAssembler assembler = new ImageAssembler(RegistryAccess.anonymous(Set.of(closed)), "gitfn-test", POOL,
        Duration.ofSeconds(30));

    assertThatThrownBy(() -> assembler.find(new ImageName(closed, "team-a/orders", "1")))
        .isInstanceOf(RegistryFailure.class)
        .hasMessageContaining("Connection refused");
  }

  private static RegistryFailure failure(Throwable cause) {
    return new RegistryFailure("pushing registry.local/team/app:1: " + cause.getMessage(), cause);
  }

  /** A loopback address nothing listens on, spoken to over plain HTTP: jib's probe for HTTPS fails there. */
}
