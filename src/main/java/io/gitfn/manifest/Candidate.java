package io.gitfn.manifest;

import io.gitfn.api.function.Function;
import java.util.Set;

/**
 * A Function read from one format, before validation. {@code reported} lists fields a reader already reported
 * (an unknown runtime, say), so the validator does not report them again as missing.
 */
record Candidate(Function function, Origin origin, Set<String> reported) {

  Candidate {
    reported = Set.copyOf(reported);
  }
}
