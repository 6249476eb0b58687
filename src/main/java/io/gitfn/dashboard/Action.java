package io.gitfn.dashboard;

import java.util.Arrays;
import java.util.Optional;

/**
 * What a person may do from the dashboard, when its actions are on: the changes the CLI makes, each checked
 * against the verb the CLI would need for it ({@code patch} on the object), for the person whose token it is.
 */
public enum Action {
  RECONCILE_REPOSITORY(Kind.REPOSITORY, "reconcile", "asked FunctionRepository %s to check Git now"),
  SUSPEND_REPOSITORY(Kind.REPOSITORY, "suspend", "suspended FunctionRepository %s"),
  RESUME_REPOSITORY(Kind.REPOSITORY, "resume", "resumed FunctionRepository %s"),
  RECONCILE_FUNCTION(Kind.FUNCTION, "reconcile", "asked Function %s to reconcile now"),
  PIN_FUNCTION(Kind.FUNCTION, "pin", "pinned Function %s"),
  UNPIN_FUNCTION(Kind.FUNCTION, "unpin", "unpinned Function %s");

  /** What an action changes, and the resource a SubjectAccessReview names for it. */
  public enum Kind {
    REPOSITORY("gitfn.io", "functionrepositories", "/repositories/"),
    FUNCTION("serverless.kyma-project.io", "functions", "/functions/");

    private final String group;
    private final String resource;
    private final String pages;

    Kind(String group, String resource, String pages) {
      this.group = group;
      this.resource = resource;
      this.pages = pages;
    }

    public String group() {
      return group;
    }

    public String resource() {
      return resource;
    }

    /** Where its pages are: {@code <pages><namespace>/<name>}. */
    String pages() {
      return pages;
    }
  }

  /** The verb every action needs: each is one merge patch, as the CLI's. */
  public static final String VERB = "patch";

  private final Kind kind;
  private final String word;
  private final String done;

  Action(Kind kind, String word, String done) {
    this.kind = kind;
    this.word = word;
    this.done = done;
  }

  public Kind kind() {
    return kind;
  }

  /** Its name in the path: {@code POST <pages><namespace>/<name>/actions/<word>}. */
  public String word() {
    return word;
  }

  /** What it did to {@code namespace/name}, in the past tense. */
  public String done(String namespace, String name) {
    return done.formatted(namespace + "/" + name);
  }

  static Optional<Action> of(Kind kind, String word) {
    return Arrays.stream(values()).filter(a -> a.kind == kind && a.word.equals(word)).findFirst();
  }
}
