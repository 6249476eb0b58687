package io.gitfn.manifest;

/** Where a Function came from, so that an error about one of its fields can name the file and line. */
interface Origin {

  /** The file or folder the Function came from: the value of {@link Annotations#SOURCE_PATH}. */
  String sourcePath();

  /** An error about {@code field} (a path in the Function, like {@code spec.runtime}) at its place. */
  ManifestError error(String field, String message);

  /** A notice about {@code field} at the place an error about it would name. */
  default ManifestNotice notice(String field, String message) {
    ManifestError at = error(field, message);
    return new ManifestNotice(at.file(), at.line(), field + ": " + message);
  }
}
