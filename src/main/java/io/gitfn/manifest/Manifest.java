package io.gitfn.manifest;

import io.gitfn.api.function.Function;
import java.util.List;

/**
 * The desired Functions of one revision, sorted by name, each annotated with {@link #SOURCE_PATH} (the file or
 * folder it came from), and what the reader skipped.
 */
public record Manifest(List<Function> functions, List<ManifestNotice> notices) {

  /** The annotation that tells which file or folder of the repository a Function came from. */
  public static final String SOURCE_PATH = "gitfn.io/source-path";

  public Manifest {
    functions = List.copyOf(functions);
    notices = List.copyOf(notices);
  }
}
