package io.gitfn.trigger.webhook;

import io.gitfn.source.RepositoryUrl;
import java.util.Objects;

/**
 * A verified push, as handed to one {@link WebhookTarget}.
 *
 * @param forge who sent it
 * @param deliveryId the forge's id of the delivery, or null when the sender gave none
 * @param event the forge's event name, such as {@code push}, {@code Tag Push Hook} or {@code repo:push}
 * @param repository the repository as the payload named it, in the form that matched the target
 * @param ref the full ref that moved: {@code refs/heads/main}, {@code refs/tags/v1}
 * @param after the commit the ref points at now, or null when the ref was deleted
 */
public record PushEvent(
    Forge forge, String deliveryId, String event, RepositoryUrl repository, String ref, String after) {

  public PushEvent {
    Objects.requireNonNull(forge, "forge");
    Objects.requireNonNull(event, "event");
    Objects.requireNonNull(repository, "repository");
    Objects.requireNonNull(ref, "ref");
    if (!ref.startsWith("refs/")) {
      throw new IllegalArgumentException("ref " + ref + " is not a full ref (refs/heads/..., refs/tags/...)");
    }
  }

  /** True when the push deleted the ref. */
  public boolean deleted() {
    return after == null;
  }
}
