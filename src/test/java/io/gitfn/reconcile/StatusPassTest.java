package io.gitfn.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class StatusPassTest {

  @Test
  void aLongConditionMessageIsCutToTheLimitAndSaysHowMuchWasLeftOut() {
    String message = "x".repeat(StatusPass.MAX_MESSAGE * 10);

    String shortened = StatusPass.shortened(message);

    assertThat(shortened).hasSize(StatusPass.MAX_MESSAGE).endsWith(" ... (" + (message.length()
        - StatusPass.MAX_MESSAGE) + " more characters)");
    assertThat(StatusPass.shortened("short")).isEqualTo("short");
  }
}
