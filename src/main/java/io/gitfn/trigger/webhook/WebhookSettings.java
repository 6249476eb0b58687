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
 * @param maxConcurrentDeliveries deliveries read, parsed and verified at once; each may hold a body of up to
 *     {@code maxBodyBytes}, so together they bound the receiver's memory
 * @param slotWait how long a delivery waits for one of those slots before it is answered 503
 * @param readTimeout how long a sender may take to send its whole body; a slower one is answered 408
 */
public record WebhookSettings(long maxBodyBytes, Duration dedupeWindow, Optional<String> globalSecret,
    int maxConcurrentDeliveries, Duration slotWait, Duration readTimeout) {

  public static final long DEFAULT_MAX_BODY_BYTES = 1024 * 1024;
  public static final Duration DEFAULT_DEDUPE_WINDOW = Duration.ofMinutes(10);
  public static final int DEFAULT_MAX_CONCURRENT_DELIVERIES = 8;
  public static final Duration DEFAULT_SLOT_WAIT = Duration.ofSeconds(2);
  public static final Duration DEFAULT_READ_TIMEOUT = Duration.ofSeconds(10);

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
    if (maxConcurrentDeliveries < 1) {
      throw new IllegalArgumentException("at least one webhook delivery must be handled at a time, not "
          + maxConcurrentDeliveries);
    }
    Objects.requireNonNull(slotWait, "slotWait");
    if (readTimeout == null || readTimeout.isNegative() || readTimeout.isZero()) {
      throw new IllegalArgumentException("the webhook read timeout must be positive, not " + readTimeout);
    }
  }

  public WebhookSettings(long maxBodyBytes, Duration dedupeWindow, Optional<String> globalSecret) {
    this(maxBodyBytes, dedupeWindow, globalSecret, DEFAULT_MAX_CONCURRENT_DELIVERIES, DEFAULT_SLOT_WAIT,
        DEFAULT_READ_TIMEOUT);
  }

  /** 1 MiB bodies, 8 at a time, 10 s to send one, a 10-minute dedupe window, no controller-wide secret. */
  public static WebhookSettings defaults() {
    return new WebhookSettings(DEFAULT_MAX_BODY_BYTES, DEFAULT_DEDUPE_WINDOW, Optional.empty());
  }

  public WebhookSettings withGlobalSecret(String secret) {
    return new WebhookSettings(maxBodyBytes, dedupeWindow, Optional.of(secret), maxConcurrentDeliveries, slotWait,
        readTimeout);
  }

  public WebhookSettings withMaxBodyBytes(long bytes) {
    return new WebhookSettings(bytes, dedupeWindow, globalSecret, maxConcurrentDeliveries, slotWait, readTimeout);
  }

  public WebhookSettings withReadTimeout(Duration timeout) {
    return new WebhookSettings(maxBodyBytes, dedupeWindow, globalSecret, maxConcurrentDeliveries, slotWait, timeout);
  }

  // Settings get printed at startup; the secret must not be.
  @Override
  public String toString() {
    return "WebhookSettings[maxBodyBytes=" + maxBodyBytes + ", dedupeWindow=" + dedupeWindow
        + ", globalSecret=" + (globalSecret.isPresent() ? "***" : "none") + ", maxConcurrentDeliveries="
        + maxConcurrentDeliveries + ", slotWait=" + slotWait + ", readTimeout=" + readTimeout + "]";
  }
}
