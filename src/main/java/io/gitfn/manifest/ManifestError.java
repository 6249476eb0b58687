package io.gitfn.manifest;

import java.util.Comparator;
import java.util.Objects;

/**
 * One reason a revision is invalid, with where it is: a file (or folder), a 1-based line (0 when there is none)
 * and the Function field it concerns (null when it concerns the whole file).
 */
public record ManifestError(String file, int line, String field, String message) {

  static final Comparator<ManifestError> BY_PLACE =
      Comparator.comparing(ManifestError::file).thenComparingInt(ManifestError::line);

  public ManifestError {
    Objects.requireNonNull(file, "file");
    Objects.requireNonNull(message, "message");
    if (line < 0) {
      throw new IllegalArgumentException("line must be 0 (none) or more, not " + line);
    }
  }

  ManifestError withField(String newField) {
    return new ManifestError(file, line, newField, message);
  }

  /** Like {@code functions/orders/config.yaml:3: spec.runtime: runtime `cobol85` is not one of ...}. */
  @Override
  public String toString() {
    return file + (line > 0 ? ":" + line : "") + ": " + (field == null ? "" : field + ": ") + message;
  }
}
