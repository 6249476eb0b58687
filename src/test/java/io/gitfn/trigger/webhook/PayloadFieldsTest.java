package io.gitfn.trigger.webhook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** A payload keeps the fields its parser reads and nothing else, however the rest of the body is shaped. */
class PayloadFieldsTest {

  private static final PayloadFields GENERIC = PayloadFields.of("repository", "ref", "after");

  @Test
  void aMegabyteOfTinyObjectsBesideTheFieldsIsSkipped() throws Exception {
    StringBuilder body = new StringBuilder("{\"junk\":[");
    while (body.length() < 1024 * 1024) {
      body.append("{},");
    }
    body.append("{}],\"repository\":\"https://git.example.com/a/b\",\"ref\":\"refs/heads/main\"}");

    Payload payload = Payload.parse(Samples.bytes(body.toString()), GENERIC);

    assertThat(payload.text("ref")).isEqualTo("refs/heads/main");
    assertThat(payload.object("junk")).isEmpty();
    assertThat(payload.fieldCount()).as("fields kept from the body").isEqualTo(2);
  }

  @Test
  void aFieldThatShouldHoldTextKeepsNoObjectOrList() throws Exception {
    Payload payload = Payload.parse(Samples.bytes("{\"ref\":{\"a\":[1,2,3]},\"repository\":[\"x\"]}"), GENERIC);

    assertThat(payload.fieldCount()).isZero();
    assertThatThrownBy(() -> payload.text("ref")).hasMessage("payload field ref is missing");
  }

  @Test
  void aListKeepsItsFirstElementsOnly() throws Exception {
    StringBuilder changes = new StringBuilder();
    for (int i = 0; i < PayloadFields.MAX_ITEMS + 5; i++) {
      changes.append(i == 0 ? "" : ",").append("{\"new\":{\"name\":\"b").append(i).append("\"}}");
    }
    Payload payload = Payload.parse(Samples.bytes("{\"push\":{\"changes\":[" + changes + "]}}"),
        PayloadFields.of("push.changes[].new.name"));

    assertThat(payload.array("push.changes")).hasSize(PayloadFields.MAX_ITEMS);
  }

  @Test
  void deepNestingIsRefusedBeforeItIsWalked() {
    String deep = "{\"a\":".repeat(1000) + "1" + "}".repeat(1000);

    assertThatThrownBy(() -> Payload.parse(Samples.bytes(deep), GENERIC))
        .isInstanceOf(MalformedDeliveryException.class).hasMessageStartingWith("the body is not JSON");
  }

  @Test
  void aListCanSayHowManyOfItsElementsAreRead() throws Exception {
    StringBuilder labels = new StringBuilder();
    for (int i = 0; i < 150; i++) {
      labels.append(i == 0 ? "" : ",").append("{\"name\":\"l").append(i).append("\"}");
    }
    Payload payload = Payload.parse(Samples.bytes("{\"labels\":[" + labels + "]}"),
        PayloadFields.of("labels[120].name"));

    assertThat(payload.array("labels")).hasSize(120);
  }
}
