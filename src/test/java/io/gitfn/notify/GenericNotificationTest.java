package io.gitfn.notify;

import static io.gitfn.notify.Samples.CONTEXT;
import static io.gitfn.notify.Samples.DESCRIPTION;
import static io.gitfn.notify.Samples.SHA;
import static io.gitfn.notify.Samples.TARGET;
import static io.gitfn.notify.Samples.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;

class GenericNotificationTest {

  private static final byte[] SECRET = "shared-secret".getBytes(StandardCharsets.UTF_8);
  private static final URI ENDPOINT = URI.create("https://hooks.example/gitfn");
  private static final Instant TIME = Instant.parse("2024-05-01T10:00:00.123Z");

  private static GenericNotification notification(CommitStatus status, String cluster) {
    return new GenericNotification(GenericNotification.Kind.FUNCTION_REPOSITORY, "shop", "functions",
        "main@sha1:" + SHA, status, "Succeeded", TIME, cluster);
  }

  @Test
  void theBodySaysWhichResourceReachedWhichStateAtWhichCommit() {
    JsonNode body = json(notification(Samples.success(), "prod-eu").body());

    assertThat(body.path("kind").asText()).isEqualTo("FunctionRepository");
    assertThat(body.path("namespace").asText()).isEqualTo("shop");
    assertThat(body.path("name").asText()).isEqualTo("functions");
    assertThat(body.path("revision").asText()).isEqualTo("main@sha1:" + SHA);
    assertThat(body.path("sha").asText()).isEqualTo(SHA);
    assertThat(body.path("state").asText()).isEqualTo("success");
    assertThat(body.path("reason").asText()).isEqualTo("Succeeded");
    assertThat(body.path("message").asText()).isEqualTo(DESCRIPTION);
    assertThat(body.path("context").asText()).isEqualTo(CONTEXT);
    assertThat(body.path("targetUrl").asText()).isEqualTo(TARGET);
    assertThat(body.path("time").asText()).isEqualTo("2024-05-01T10:00:00Z");
    assertThat(body.path("cluster").asText()).isEqualTo("prod-eu");
  }

  @Test
  void noLinkAndNoClusterAreLeftOut() {
    CommitStatus status = new CommitStatus(SHA, CommitState.PENDING, CONTEXT, "Reconciling", null);

    JsonNode body = json(notification(status, null).body());

    assertThat(body.has("targetUrl")).isFalse();
    assertThat(body.has("cluster")).isFalse();
  }

  @Test
  void theSignatureIsTheHmacSha256OfTheBodyUnderTheSharedSecret() throws Exception {
    ForgeRequest request = notification(Samples.success(), "prod-eu").request(ENDPOINT, SECRET);

    Mac mac = Mac.getInstance("HmacSHA256");
    mac.init(new SecretKeySpec(SECRET, "HmacSHA256"));
    String expected = "sha256=" + HexFormat.of().formatHex(mac.doFinal(request.body()));
    assertThat(request.headers())
        .containsEntry("X-Gitfn-Signature", expected)
        .containsEntry("Content-Type", "application/json");
    assertThat(request.method()).isEqualTo("POST");
    assertThat(request.uri()).isEqualTo(ENDPOINT);
  }

  @Test
  void aBodyChangedOnTheWayNoLongerMatchesTheSignature() {
    ForgeRequest request = notification(Samples.success(), null).request(ENDPOINT, SECRET);
    byte[] tampered = new String(request.body(), StandardCharsets.UTF_8).replace("success", "failure")
        .getBytes(StandardCharsets.UTF_8);

    assertThat(GenericNotification.signature(tampered, SECRET))
        .isNotEqualTo(request.headers().get(GenericNotification.SIGNATURE_HEADER));
  }

  @Test
  void aNotificationIsNeverSentUnsigned() {
    assertThatThrownBy(() -> notification(Samples.success(), null).request(ENDPOINT, new byte[0]))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("the shared secret for generic notifications is empty");
  }

  @Test
  void anEndpointWithCredentialsInItIsRefused() {
    assertThatThrownBy(() -> notification(Samples.success(), null)
        .request(URI.create("https://user:pw@hooks.example/x"), SECRET))
        .hasMessage("notification endpoint hooks.example: it has user info in it; "
            + "the shared secret signs the notification instead");
  }

  @Test
  void aNotificationNamesItsResource() {
    assertThatThrownBy(() -> new GenericNotification(GenericNotification.Kind.FUNCTION, "shop", " ",
        "main@sha1:" + SHA, Samples.success(), "Ready", TIME, null))
        .hasMessage("a generic notification needs a name");
  }
}
