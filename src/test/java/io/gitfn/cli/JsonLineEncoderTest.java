package io.gitfn.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.LoggingEvent;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class JsonLineEncoderTest {

  private final LoggerContext context = (LoggerContext) org.slf4j.LoggerFactory.getILoggerFactory();

  @Test
  void anEventIsOneJsonObjectOnOneLine() throws Exception {
    LoggingEvent event = new LoggingEvent("x", context.getLogger("io.gitfn.trigger.MirrorChecks"), Level.WARN,
        "{}: {}\nsecond line", new IllegalStateException("boom"), new Object[] {"repo", "failed"});
    String line = new String(new JsonLineEncoder().encode(event), StandardCharsets.UTF_8);

    assertThat(line).endsWith("\n");
    assertThat(line.strip()).doesNotContain("\n");
    JsonNode json = new ObjectMapper().readTree(line);
    assertThat(json.get("level").asText()).isEqualTo("WARN");
    assertThat(json.get("logger").asText()).isEqualTo("io.gitfn.trigger.MirrorChecks");
    assertThat(json.get("message").asText()).isEqualTo("repo: failed\nsecond line");
    assertThat(json.get("error").asText()).contains("IllegalStateException: boom");
    assertThat(json.get("time").asText()).matches("\\d{4}-\\d\\d-\\d\\dT.*Z");
  }

  @Test
  void badLogFlagsNameTheFlag() {
    assertThat(LogSetup.format("JSON")).isEqualTo(LogSetup.Format.JSON);
    assertThat(LogSetup.level("debug")).isEqualTo(Level.DEBUG);
    assertThatThrownBy(() -> LogSetup.format("xml")).hasMessage("--log-format `xml` is not one of text, json");
    assertThatThrownBy(() -> LogSetup.level("loud")).hasMessageStartingWith("--log-level `loud` is not one of");
  }
}
