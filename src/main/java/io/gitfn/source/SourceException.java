package io.gitfn.source;

/** A Git operation that failed, with a kind that says whether waiting can fix it. */
public class SourceException extends Exception {

  public enum Kind {
    AUTHENTICATION,
    REPOSITORY_NOT_FOUND,
    REF_NOT_FOUND,
    PATH_NOT_FOUND,
    UNKNOWN_HOST_KEY,
    TIMEOUT,
    TOO_LARGE,
    TRANSPORT
  }

  private final Kind kind;

  public SourceException(Kind kind, String message) {
    this(kind, message, null);
  }

  public SourceException(Kind kind, String message, Throwable cause) {
    super(message, cause);
    this.kind = kind;
  }

  public Kind kind() {
    return kind;
  }

  /** True when the same request may succeed later by itself; false when a human has to change something. */
  public boolean recoverable() {
    return kind == Kind.TIMEOUT || kind == Kind.TRANSPORT;
  }
}
