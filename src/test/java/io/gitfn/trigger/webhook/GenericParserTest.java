package io.gitfn.trigger.webhook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class GenericParserTest {

  private final GenericParser parser = new GenericParser();

  @Test
  void theDocumentedBodyIsAPush() throws Exception {
    byte[] body = Samples.read("generic-push.json");
    Delivery d = parser.parse(Headers.of("X-Signature", Samples.sha256Header("s3cret", body),
        "X-Delivery-Id", "build-42"), body);

    assertThat(d.forge()).isEqualTo(Forge.GENERIC);
    assertThat(d.deliveryId()).isEqualTo("build-42");
    assertThat(d.repositories().get(0).matchKey()).isEqualTo("git.example.com/platform/orders");
    assertThat(d.changes()).containsExactly(
        new RefChange("refs/heads/main", "3f786850e387550fdab836ed7e6dc881de23001b"));
    assertThat(new SignatureVerifier().verifies(d.proof(), body, "s3cret")).isTrue();
  }

  @Test
  void theDeliveryIdAndAfterAreOptional() throws Exception {
    Delivery d = parser.parse(Headers.of(),
        Samples.bytes("{\"repository\":\"https://git.example.com/platform/orders\",\"ref\":\"refs/tags/v1\"}"));
    assertThat(d.deliveryId()).isNull();
    assertThat(d.changes()).containsExactly(new RefChange("refs/tags/v1", null));
  }

  @Test
  void errorsNameTheField() {
    assertThatThrownBy(() -> parser.parse(Headers.of(), Samples.bytes("{\"ref\":\"refs/heads/main\"}")))
        .hasMessage("payload field repository is missing");
    assertThatThrownBy(() -> parser.parse(Headers.of(),
        Samples.bytes("{\"repository\":\"https://git.example.com/a/b\",\"ref\":\"main\"}")))
        .hasMessage("payload field ref must be a full ref such as refs/heads/main, not main");
    assertThatThrownBy(() -> parser.parse(Headers.of(),
        Samples.bytes("{\"repository\":\"ftp://git.example.com/a/b\",\"ref\":\"refs/heads/main\"}")))
        .hasMessageStartingWith("payload field repository: repository URL");
    assertThatThrownBy(() -> parser.parse(Headers.of(),
        Samples.bytes("{\"repository\":\"https://git.example.com/a/b\",\"ref\":7}")))
        .hasMessage("payload field ref must be a string");
    assertThatThrownBy(() -> parser.parse(Headers.of(),
        Samples.bytes("{\"repository\":\"https://git.example.com/a/b\",\"ref\":\"refs/heads/a\\nINFO forged\"}")))
        .hasMessage("payload field ref is not a valid ref name");
    assertThatThrownBy(() -> parser.parse(Headers.of(), Samples.bytes("[1,2]")))
        .hasMessageStartingWith("the body is not a JSON object");
    assertThatThrownBy(() -> parser.parse(Headers.of(), Samples.bytes("{\"repository\":")))
        .hasMessageStartingWith("the body is not JSON");
  }
}
