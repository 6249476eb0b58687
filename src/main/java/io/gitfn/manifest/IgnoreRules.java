package io.gitfn.manifest;

import java.util.ArrayList;
import java.util.List;

/**
 * Which paths the reader skips: the lines of every {@code .gitfnignore} and of the repository's
 * {@code spec.ignore}, in order of precedence (the last line that matches decides, as in gitignore). As in
 * gitignore, a file inside an ignored folder stays ignored even if a later line would keep it.
 */
final class IgnoreRules {

  /** The name of the ignore file; its lines apply to its own folder and below. */
  static final String FILE_NAME = ".gitfnignore";

  private final List<IgnorePattern> patterns = new ArrayList<>();

  /**
   * Adds the lines of one ignore file (or of {@code spec.ignore}) that apply below {@code base}; a line that is not
   * a pattern is left out and reported in {@code errors} with {@code source} and its line number.
   */
  IgnoreRules add(String base, String lines, String source, List<ManifestError> errors) {
    String[] split = lines.split("\n", -1);
    for (int i = 0; i < split.length; i++) {
      try {
        IgnorePattern.parse(split[i], base).ifPresent(patterns::add);
      } catch (IllegalArgumentException e) {
        errors.add(new ManifestError(source, i + 1, null, "ignore pattern `" + split[i].strip() + "`: "
            + e.getMessage()));
      }
    }
    return this;
  }

  /** True when the file at {@code path}, or a folder it is in, is ignored. */
  boolean excludes(String path) {
    int slash = path.indexOf('/');
    while (slash > 0) {
      if (ignored(path.substring(0, slash), true)) {
        return true;
      }
      slash = path.indexOf('/', slash + 1);
    }
    return ignored(path, false);
  }

  private boolean ignored(String path, boolean directory) {
    boolean ignored = false;
    for (IgnorePattern pattern : patterns) {
      if (pattern.matches(path, directory)) {
        ignored = !pattern.negated();
      }
    }
    return ignored;
  }
}
