package io.gitfn.trigger.webhook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class WebhookSettingsTest {

  @Test
  void defaultsAreOneMebibyteTenMinutesAndNoGlobalSecret() {
    WebhookSettings d = WebhookSettings.defaults();
    assertThat(d.maxBodyBytes()).isEqualTo(1024 * 1024);
    assertThat(d.dedupeWindow()).isEqualTo(Duration.ofMinutes(10));
    assertThat(d.globalSecret()).isEmpty();
  }

  @Test
  void theGlobalSecretIsNeverPrinted() {
    assertThat(WebhookSettings.defaults().withGlobalSecret("hunter2").toString())
        .doesNotContain("hunter2").contains("globalSecret=***");
  }

  @Test
  void nonsenseIsRefused() {
    assertThatThrownBy(() -> new WebhookSettings(0, Duration.ofMinutes(1), Optional.empty()))
        .hasMessageContaining("body limit");
    assertThatThrownBy(() -> new WebhookSettings(1, Duration.ofMinutes(-1), Optional.empty()))
        .hasMessageContaining("dedupe window");
    assertThatThrownBy(() -> WebhookSettings.defaults().withGlobalSecret(""))
        .hasMessageContaining("empty");
  }
}
