package io.gitfn.secrets;

import io.gitfn.secrets.sops.SopsException;
import java.util.Objects;

/**
 * An encrypted Secret of a revision that gitfn will not apply, and why; one such file refuses all the revision's
 * Secrets. The message names the file and what is wrong in it. Like {@link SopsException}'s, it holds no value,
 * decrypted or not, and no key, because it ends up in a status, an Event and the log; no cause is chained, for the
 * same reason.
 */
public final class SecretException extends Exception {

  /** What went wrong, as a condition reason; the message says it in words. */
  public enum Reason {
    /** Larger, deeper or with more values than gitfn decrypts, or more encrypted Secrets than it decrypts at once. */
    TOO_LARGE("TooLarge"),
    /** Not YAML, no {@code sops} block, or a value that is not one sops writes. */
    MALFORMED("Malformed"),
    /** Valid SOPS that gitfn does not read (key groups, aliases, comment rules). */
    UNSUPPORTED("Unsupported"),
    /** None of the age identities opens any of the file's recipients. */
    NO_MATCHING_IDENTITY("NoMatchingIdentity"),
    /** A value or the MAC does not authenticate: the file was changed after sops wrote it, or spliced. */
    MAC_MISMATCH("MacMismatch"),
    /** Decrypted and authentic, but not a Secret gitfn applies (its fields, names, namespace or values). */
    INVALID_SECRET("InvalidSecret");

    private final String value;

    Reason(String value) {
      this.value = value;
    }

    /** The reason in a condition's CamelCase, such as {@code MacMismatch}. */
    public String value() {
      return value;
    }
  }

  private final Reason reason;
  private final String file;

  private SecretException(Reason reason, String file, String message) {
    super(message, null, false, true);
    this.reason = Objects.requireNonNull(reason);
    this.file = Objects.requireNonNull(file);
  }

  /** The SOPS reader's refusal, with its message, which names the file and the value's path but no value. */
  static SecretException of(SopsException e) {
    Reason reason = switch (e.reason()) {
      case TOO_LARGE -> Reason.TOO_LARGE;
      case NOT_YAML, NOT_SOPS, MALFORMED_VALUE -> Reason.MALFORMED;
      case UNSUPPORTED -> Reason.UNSUPPORTED;
      case NO_MATCHING_IDENTITY -> Reason.NO_MATCHING_IDENTITY;
      // Both say the file is not what sops wrote: a changed value fails its own tag before the MAC is reached.
      case VALUE_TAMPERED, MAC_MISMATCH -> Reason.MAC_MISMATCH;
    };
    return new SecretException(reason, e.file(), e.getMessage());
  }

  /** @param problem where in the file and what is wrong, with no value in it */
  static SecretException invalid(String file, String problem) {
    return new SecretException(Reason.INVALID_SECRET, file, file + ": " + problem);
  }

  static SecretException tooLarge(String file, String problem) {
    return new SecretException(Reason.TOO_LARGE, file, file + ": " + problem);
  }

  public Reason reason() {
    return reason;
  }

  /** The file at fault, as the repository names it. */
  public String file() {
    return file;
  }
}
