package io.gitfn.manifest;

import java.util.List;
import java.util.stream.Collectors;

/** A revision that cannot be applied, with every reason at once, one per line of the message. */
public final class InvalidManifestException extends Exception {

  private final List<ManifestError> errors;

  public InvalidManifestException(List<ManifestError> errors) {
    super(errors.stream().map(ManifestError::toString).collect(Collectors.joining("\n")));
    if (errors.isEmpty()) {
      throw new IllegalArgumentException("an invalid manifest has at least one error");
    }
    this.errors = List.copyOf(errors);
  }

  public List<ManifestError> errors() {
    return errors;
  }
}
