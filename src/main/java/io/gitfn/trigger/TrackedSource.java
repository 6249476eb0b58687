package io.gitfn.trigger;

import io.gitfn.source.GitCredentials;
import io.gitfn.source.RefSelector;
import io.gitfn.source.RepositoryUrl;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * One thing gitfn keeps in step with Git: a ref of a repository, checked at least every {@code interval},
 * and at once when a webhook signed with {@code webhookSecret} says the ref moved.
 */
public record TrackedSource(
    SourceId id,
    RepositoryUrl url,
    GitCredentials credentials,
    RefSelector ref,
    Duration interval,
    Optional<String> webhookSecret) {

  public TrackedSource {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(url, "url");
    Objects.requireNonNull(credentials, "credentials");
    Objects.requireNonNull(ref, "ref");
    Objects.requireNonNull(webhookSecret, "webhookSecret");
    if (interval == null || interval.isNegative() || interval.isZero()) {
      throw new IllegalArgumentException(id + ": interval must be positive, was " + interval);
    }
  }

  @Override
  public String toString() {
    return id + " (" + url + " " + ref + " every " + interval + ")";
  }
}
