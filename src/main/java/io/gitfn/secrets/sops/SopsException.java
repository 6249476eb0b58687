package io.gitfn.secrets.sops;

import java.util.Objects;

/**
 * A SOPS file that gitfn will not apply, and why. The message names the file and, where there is one, the value's
 * path; it never holds a value, decrypted or not, because it ends up in a status, an Event and the log. No cause
 * is chained for the same reason: SnakeYAML's and the JDK's messages may quote the input.
 */
public final class SopsException extends Exception {

  /** What went wrong, for the condition's reason; the message says it in words. */
  public enum Reason {
    /** Bigger, deeper or with more values than {@link SopsLimits} allows; refused before it is parsed. */
    TOO_LARGE,
    /** Not YAML, not one mapping document, or a key given twice. */
    NOT_YAML,
    /** No {@code sops} metadata block, or one without what decryption needs. */
    NOT_SOPS,
    /** Valid SOPS that gitfn does not read (key groups, comment rules, aliases, a value form it cannot hash). */
    UNSUPPORTED,
    /** A value that should be encrypted is not an {@code ENC[AES256_GCM,...]} value sops writes. */
    MALFORMED_VALUE,
    /** None of the identities opens any age recipient's copy of the data key. */
    NO_MATCHING_IDENTITY,
    /** A value's authentication tag does not verify: the value, its IV or its key path was changed. */
    VALUE_TAMPERED,
    /** The MAC does not decrypt, or does not match the values: a value was replaced, added or removed. */
    MAC_MISMATCH
  }

  private final Reason reason;
  private final String file;
  private final String path;

  /**
   * @param path the value's path as dotted keys (sequence items as {@code [i]}), or null for the whole file
   * @param problem what is wrong and what to do, without any value in it
   */
  public SopsException(Reason reason, String file, String path, String problem) {
    super(file + (path == null ? "" : ": " + path) + ": " + problem, null, false, true);
    this.reason = Objects.requireNonNull(reason);
    this.file = Objects.requireNonNull(file);
    this.path = path;
  }

  public Reason reason() {
    return reason;
  }

  public String file() {
    return file;
  }

  /** The value's path, or null when the problem is the whole file's. */
  public String path() {
    return path;
  }
}
