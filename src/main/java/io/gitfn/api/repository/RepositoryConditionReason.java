package io.gitfn.api.repository;

/** The reasons of a FunctionRepository's conditions; docs/troubleshooting.md has an entry for each. */
public final class RepositoryConditionReason {

  // Ready=True
  public static final String SUCCEEDED = "Succeeded";
  public static final String SUSPENDED = "Suspended";

  // Ready=Unknown and Reconciling=True: the revision is applied, and its Functions build or roll out
  public static final String ROLLING_OUT = "RollingOut";

  // Ready=False, neither Reconciling nor Stalled: the revision is applied, and a Function of it failed
  public static final String FUNCTIONS_FAILED = "FunctionsFailed";

  // Reconciling=True: the first fetch, a dependency that does not run yet, or a failure the controller retries
  public static final String PROGRESSING = "Progressing";
  public static final String DEPENDENCY_NOT_READY = "DependencyNotReady";
  public static final String SOURCE_NOT_READY = "SourceNotReady";
  public static final String SOURCE_FAILED = "SourceFailed";
  public static final String SOURCE_READ_FAILED = "SourceReadFailed";
  public static final String APPLY_FAILED = "ApplyFailed";
  public static final String RECONCILIATION_FAILED = io.gitfn.api.Conditions.RECONCILIATION_FAILED;

  // Stalled=True: a person must change the spec, a Secret or Git
  public static final String INVALID_REVISION = "InvalidRevision";
  public static final String APPLY_REFUSED = "ApplyRefused";
  public static final String INVALID_URL = "InvalidURL";
  public static final String INVALID_SPEC = "InvalidSpec";
  public static final String SECRET_NOT_FOUND = "SecretNotFound";
  public static final String SECRET_UNREADABLE = "SecretUnreadable";
  public static final String INVALID_SECRET = "InvalidSecret";

  // Stalled=True and SourceVerified=False: the fetched revision's signatures did not verify (spec.verify); each is
  // a failure of io.gitfn.source.verify, spelled as the condition shows it
  public static final String UNSIGNED_COMMIT = "UnsignedCommit";
  public static final String UNSIGNED_TAG = "UnsignedTag";
  public static final String UNKNOWN_KEY = "UnknownKey";
  public static final String EXPIRED_KEY = "ExpiredKey";
  public static final String REVOKED_KEY = "RevokedKey";
  public static final String BAD_SIGNATURE = "BadSignature";
  public static final String TOO_MANY_COMMITS = "TooManyCommits";
  public static final String LAST_VERIFIED_MISSING = "LastVerifiedMissing";

  // Stalled=True: an encrypted Secret of the revision could not be decrypted (spec.decryption); nothing applied
  public static final String DECRYPTION_FAILED = "DecryptionFailed";
  /** The controller requires spec.serviceAccountName (--require-service-account) and the repository has none. */
  public static final String SERVICE_ACCOUNT_REQUIRED = "ServiceAccountRequired";
  /** A preview's repository whose namespace is missing or was not made by gitfn for its repository. */
  public static final String PREVIEW_NAMESPACE = "PreviewNamespace";

  private RepositoryConditionReason() {}
}
