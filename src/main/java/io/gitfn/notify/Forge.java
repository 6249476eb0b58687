package io.gitfn.notify;

import java.util.Arrays;
import java.util.stream.Collectors;

/** A forge whose commit-status API gitfn speaks, with the name a FunctionRepository's spec uses for it. */
public enum Forge {
  /** github.com and GitHub Enterprise Server. */
  GITHUB("github", "GitHub"),
  /** gitlab.com and self-managed GitLab. */
  GITLAB("gitlab", "GitLab"),
  GITEA("gitea", "Gitea"),
  /** Forgejo keeps Gitea's commit-status API; it has its own name so a spec says what it points at. */
  FORGEJO("forgejo", "Forgejo"),
  /** bitbucket.org. */
  BITBUCKET_CLOUD("bitbucket", "Bitbucket Cloud"),
  /** Bitbucket Server and Bitbucket Data Center, which share one REST API. */
  BITBUCKET_SERVER("bitbucket-server", "Bitbucket Server");

  private final String id;
  private final String title;

  Forge(String id, String title) {
    this.id = id;
    this.title = title;
  }

  /** The name in a spec field, such as {@code github} or {@code bitbucket-server}. */
  public String id() {
    return id;
  }

  /** The forge's own name, for messages. */
  public String title() {
    return title;
  }

  /** The forge a spec field names, by {@link #id()}. */
  public static Forge parse(String id) {
    return Arrays.stream(values())
        .filter(f -> f.id.equals(id))
        .findFirst()
        .orElseThrow(() -> new IllegalArgumentException("commit-status forge `" + id + "` is not one of "
            + Arrays.stream(values()).map(Forge::id).collect(Collectors.joining(", "))));
  }
}
