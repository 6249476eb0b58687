package io.gitfn.trigger.webhook;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * How the webhook receiver behaves.
 *
 * @param maxBodyBytes deliveries with a larger body are refused with 413 before they are read whole
 * @param dedupeWindow a delivery id seen again within this window is answered and ignored
 * @param globalSecret a controller-wide secret that verifies deliveries for sources without a secret of their own
 */
public record WebhookSettings(long maxBodyBytes, Duration dedupeWindow, Optional<String> globalSecret) {

  public static final long DEFAULT_MAX_BODY_BYTES = 1024 * 1024;
  public static final Duration DEFAULT_DEDUPE_WINDOW = Duration.ofMinutes(10);

  public WebhookSettings {
    if (maxBodyBytes <= 0 || maxBodyBytes > Integer.MAX_VALUE - 8) {
      throw new IllegalArgumentException("webhook body limit must be between 1 byte and 2 GiB, not " + maxBodyBytes);
    }
    Objects.requireNonNull(dedupeWindow, "dedupeWindow");
    if (dedupeWindow.isNegative()) {
      throw new IllegalArgumentException("webhook dedupe window must not be negative, not " + dedupeWindow);
    }
    Objects.requireNonNull(globalSecret, "globalSecret");
    if (globalSecret.isPresent() && globalSecret.get().isEmpty()) {
      throw new IllegalArgumentException("the controller-wide webhook secret is empty; leave it unset instead");
    }
  }

  /** 1 MiB bodies, a 10-minute dedupe window, no controller-wide secret. */
  public static WebhookSettings defaults() {
    return new WebhookSettings(DEFAULT_MAX_BODY_BYTES, DEFAULT_DEDUPE_WINDOW, Optional.empty());
  }

  public WebhookSettings withGlobalSecret(String secret) {
    return new WebhookSettings(maxBodyBytes, dedupeWindow, Optional.of(secret));
  }

  public WebhookSettings withMaxBodyBytes(long bytes) {
    return new WebhookSettings(bytes, dedupeWindow, globalSecret);
  }

  // Settings get printed at startup; the secret must not be.
  @Override
  public String toString() {
    return "WebhookSettings[maxBodyBytes=" + maxBodyBytes + ", dedupeWindow=" + dedupeWindow
        + ", globalSecret=" + (globalSecret.isPresent() ? "***" : "none") + "]";
  }
}
