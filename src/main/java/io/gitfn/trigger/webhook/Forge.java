package io.gitfn.trigger.webhook;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

/** A sender of push webhooks, one receiver path each: {@code /hooks/<pathSegment>}. */
public enum Forge {
  GITHUB,
  GITLAB,
  /** Gitea and Forgejo: Forgejo keeps Gitea's payloads and sends its own header names next to Gitea's. */
  GITEA,
  /** Bitbucket Cloud and Bitbucket Server/Data Center, told apart by their event key. */
  BITBUCKET,
  /** Any sender that signs a small documented JSON body with HMAC-SHA256. */
  GENERIC;

  /** The last segment of this forge's receiver path, such as {@code github}. */
  public String pathSegment() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** The forge served at a path segment, if any. */
  public static Optional<Forge> forPathSegment(String segment) {
    return Arrays.stream(values()).filter(f -> f.pathSegment().equals(segment)).findFirst();
  }
}
