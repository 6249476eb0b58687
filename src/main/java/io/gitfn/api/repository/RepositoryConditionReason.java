package io.gitfn.api.repository;

/** The reasons of a FunctionRepository's conditions; docs/troubleshooting.md has an entry for each. */
public final class RepositoryConditionReason {

  // Ready=True
  public static final String SUCCEEDED = "Succeeded";
  public static final String SUSPENDED = "Suspended";

  // Reconciling=True: the first fetch, or a failure the controller retries by itself
  public static final String PROGRESSING = "Progressing";
  public static final String SOURCE_NOT_READY = "SourceNotReady";
  public static final String SOURCE_FAILED = "SourceFailed";
  public static final String SOURCE_READ_FAILED = "SourceReadFailed";
  public static final String APPLY_FAILED = "ApplyFailed";

  // Stalled=True: a person must change the spec, a Secret or Git
  public static final String INVALID_REVISION = "InvalidRevision";
  public static final String APPLY_REFUSED = "ApplyRefused";
  public static final String INVALID_URL = "InvalidURL";
  public static final String INVALID_SPEC = "InvalidSpec";
  public static final String SECRET_NOT_FOUND = "SecretNotFound";
  public static final String SECRET_UNREADABLE = "SecretUnreadable";
  public static final String INVALID_SECRET = "InvalidSecret";

  private RepositoryConditionReason() {}
}
