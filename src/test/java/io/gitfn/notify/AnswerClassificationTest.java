package io.gitfn.notify;

import static org.assertj.core.api.Assertions.assertThat;

import io.gitfn.notify.SendResult.Outcome;
import java.net.http.HttpHeaders;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** What an answer means, without a server: the rules {@link CommitStatusSender#classify} applies. */
class AnswerClassificationTest {

  private static final Instant NOW = Instant.parse("2024-05-01T10:00:00Z");

  private static SendResult classify(int status, Map<String, List<String>> headers, String answer) {
    return CommitStatusSender.classify(status, HttpHeaders.of(headers, (name, value) -> true),
        answer.getBytes(StandardCharsets.UTF_8), Set.of("s3cret-token"), NOW);
  }

  @ParameterizedTest
  @ValueSource(ints = {200, 201, 202, 204})
  void anySuccessIsSent(int status) {
    assertThat(classify(status, Map.of(), "{}").outcome()).isEqualTo(Outcome.SENT);
  }

  @ParameterizedTest
  @ValueSource(ints = {408, 425, 429, 500, 502, 503, 504})
  void aPassingFailureIsRetried(int status) {
    assertThat(classify(status, Map.of(), "").outcome()).isEqualTo(Outcome.RETRY);
  }

  @ParameterizedTest
  @ValueSource(ints = {301, 400, 401, 403, 404, 405, 409, 410, 422})
  void aFailureOnlyAPersonCanFixIsRejected(int status) {
    assertThat(classify(status, Map.of(), "no").outcome()).isEqualTo(Outcome.REJECTED);
  }

  @Test
  void gitHubsUsedUpRateLimitIsA403ThatPassesAtTheReset() {
    SendResult result = classify(403, Map.of(
        "x-ratelimit-remaining", List.of("0"),
        "x-ratelimit-reset", List.of(String.valueOf(NOW.plusSeconds(90).getEpochSecond()))),
        "{\"message\":\"API rate limit exceeded\"}");

    assertThat(result.outcome()).isEqualTo(Outcome.RETRY);
    assertThat(result.retryAfter()).contains(Duration.ofSeconds(90));
  }

  @Test
  void aRetryAfterDateIsMeasuredFromTheClock() {
    SendResult result = classify(503, Map.of("Retry-After", List.of("Wed, 01 May 2024 10:02:00 GMT")), "");

    assertThat(result.retryAfter()).contains(Duration.ofMinutes(2));
  }

  @Test
  void aRetryAfterThatCannotBeReadIsNoRetryAfter() {
    assertThat(classify(429, Map.of("Retry-After", List.of("soon")), "").retryAfter()).isEmpty();
  }

  @Test
  void theExcerptIsShortPrintableAndWithoutTheToken() {
    String answer = "token s3cret-token refused\r\n\u202Eevil\u0000" + "x".repeat(1000);

    String detail = classify(401, Map.of(), answer).detail();

    assertThat(detail).startsWith("token *** refused evil ").hasSize(200).endsWith("...");
    assertThat(detail.chars()).noneMatch(c -> Character.isISOControl(c) || c == '\u202E');
  }
}
