package io.gitfn.source;

import java.time.Instant;
import java.util.Map;
import java.util.Objects;

/**
 * What one {@code ls-remote} saw: every ref's full name and the commit it points at. Annotated tags are peeled,
 * so a tag maps to its commit, not to the tag object.
 */
public record RemoteRefs(Map<String, String> refs, Instant checkedAt) {

  public RemoteRefs {
    refs = Map.copyOf(refs);
    Objects.requireNonNull(checkedAt, "checkedAt");
  }

  /** The commit {@code selector} picks; a {@link SourceException.Kind#REF_NOT_FOUND} names what is missing. */
  public Revision resolve(RefSelector selector) throws SourceException {
    return selector.resolveIn(refs);
  }
}
