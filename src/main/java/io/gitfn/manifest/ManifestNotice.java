package io.gitfn.manifest;

import java.util.Objects;

/** Something the reader skipped on purpose and the user may want to know about, such as a Secret in the folder. */
public record ManifestNotice(String file, int line, String message) {

  public ManifestNotice {
    Objects.requireNonNull(file, "file");
    Objects.requireNonNull(message, "message");
  }

  @Override
  public String toString() {
    return file + (line > 0 ? ":" + line : "") + ": " + message;
  }
}
