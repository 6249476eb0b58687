package io.gitfn.trigger.webhook;

import java.util.Optional;

/** One source a push can trigger, such as a FunctionRepository. */
public interface WebhookTarget {

  /** A name for logs and tests, such as {@code namespace/name}; never a secret. */
  String name();

  /**
   * The webhook secret from the source's {@code spec.webhook.secretRef}, or empty when it has none (then only
   * the controller-wide secret can trigger it).
   */
  Optional<String> secret();

  /** Whether a push to the full ref {@code ref} ({@code refs/heads/main}) can move what the source tracks. */
  boolean moves(String ref);

  /** Starts a check of the source. Called only after the delivery verified against this target's secret. */
  void trigger(PushEvent event);
}
