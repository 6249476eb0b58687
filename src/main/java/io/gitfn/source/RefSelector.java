package io.gitfn.source;

import io.gitfn.api.repository.GitRef;
import java.util.Comparator;
import java.util.Map;
import java.util.Optional;
import org.eclipse.jgit.lib.Repository;

/** Which commit of a repository a source follows. Resolving one against the remote's refs gives a {@link Revision}. */
public sealed interface RefSelector {

  String HEADS = "refs/heads/";
  String TAGS = "refs/tags/";

  /** False when the selector names its commit itself, so no {@code ls-remote} can change the answer. */
  default boolean needsRemoteCheck() {
    return true;
  }

  /** The commit this selector picks among {@code refs} (full ref name to commit SHA). */
  Revision resolveIn(Map<String, String> refs) throws SourceException;

  /** A FunctionRepository's {@code spec.ref}: exactly one of branch, tag, semver (with tagPrefix) or commit. */
  static RefSelector of(GitRef ref) {
    if (ref == null) {
      throw new IllegalArgumentException("no ref given: set one of branch, tag, semver or commit");
    }
    if (ref.getCommit() != null) {
      return new Commit(ref.getCommit());
    }
    if (ref.getSemver() != null) {
      return new SemverRange(ref.getSemver(), ref.getTagPrefix());
    }
    if (ref.getTag() != null) {
      return new Tag(ref.getTag());
    }
    if (ref.getBranch() != null) {
      return new Branch(ref.getBranch());
    }
    throw new IllegalArgumentException("no ref given: set one of branch, tag, semver or commit");
  }

  /** A Kyma Function's {@code gitRepository.reference}: a full SHA pins a commit; else a branch, or failing that a tag. */
  static RefSelector fromKymaReference(String reference) {
    if (reference == null || reference.isBlank()) {
      throw new IllegalArgumentException("the Function's gitRepository.reference is empty");
    }
    String trimmed = reference.trim();
    return Revision.isSha(trimmed) ? new Commit(trimmed) : new BranchOrTag(trimmed);
  }

  /** The revision of the ref {@code prefix + name}, or REF_NOT_FOUND naming it as a {@code kind}. */
  private static Revision named(Map<String, String> refs, String prefix, String name, String kind)
      throws SourceException {
    String sha = refs.get(prefix + name);
    if (sha == null) {
      throw notFound(kind + " '" + name + "'");
    }
    return new Revision(name, sha);
  }

  record Branch(String name) implements RefSelector {
    public Branch {
      name = shortName(name, HEADS, "branch");
    }

    @Override
    public Revision resolveIn(Map<String, String> refs) throws SourceException {
      return named(refs, HEADS, name, "branch");
    }

    @Override
    public String toString() {
      return "branch " + name;
    }
  }

  record Tag(String name) implements RefSelector {
    public Tag {
      name = shortName(name, TAGS, "tag");
    }

    @Override
    public Revision resolveIn(Map<String, String> refs) throws SourceException {
      return named(refs, TAGS, name, "tag");
    }

    @Override
    public String toString() {
      return "tag " + name;
    }
  }

  /** Kyma's reference: a branch of that name when there is one, else a tag. */
  record BranchOrTag(String name) implements RefSelector {
    public BranchOrTag {
      if (name == null || name.isBlank()) {
        throw new IllegalArgumentException("a reference needs a branch or tag name");
      }
      name = name.trim();
    }

    @Override
    public Revision resolveIn(Map<String, String> refs) throws SourceException {
      String branch = refs.get(HEADS + name);
      if (branch != null) {
        return new Revision(name, branch);
      }
      String tag = refs.get(TAGS + name);
      if (tag != null) {
        return new Revision(name, tag);
      }
      throw notFound("branch or tag '" + name + "'");
    }

    @Override
    public String toString() {
      return "branch or tag " + name;
    }
  }

  /** The highest tag whose version, after {@code tagPrefix} (and an optional {@code v}), is in {@code range}. */
  record SemverRange(String range, String tagPrefix) implements RefSelector {
    public SemverRange {
      VersionRange.parse(range);
      range = range.trim();
      tagPrefix = tagPrefix == null ? "" : tagPrefix;
    }

    public SemverRange(String range) {
      this(range, "");
    }

    @Override
    public Revision resolveIn(Map<String, String> refs) throws SourceException {
      VersionRange versions = VersionRange.parse(range);
      record Candidate(String tag, SemanticVersion version, String sha) {}
      int seen = 0;
      Optional<Candidate> best = Optional.empty();
      for (Map.Entry<String, String> ref : refs.entrySet()) {
        if (!ref.getKey().startsWith(TAGS + tagPrefix)) {
          continue;
        }
        seen++;
        String tag = ref.getKey().substring(TAGS.length());
        Optional<SemanticVersion> version = SemanticVersion.parse(tag.substring(tagPrefix.length()));
        if (version.isPresent() && versions.matches(version.get())) {
          Candidate candidate = new Candidate(tag, version.get(), ref.getValue());
          best = best.isEmpty()
              ? Optional.of(candidate)
              : Optional.of(
                  Comparator.comparing(Candidate::version)
                          // 1.2.3 and v1.2.3 are the same version: pick by name so the answer is stable.
                          .thenComparing(Candidate::tag, Comparator.reverseOrder())
                          .compare(candidate, best.get()) > 0
                      ? candidate
                      : best.get());
        }
      }
      if (best.isEmpty()) {
        throw new SourceException(
            SourceException.Kind.REF_NOT_FOUND,
            "no tag" + (tagPrefix.isEmpty() ? "" : " starting with '" + tagPrefix + "'")
                + " matches semver range '" + range + "' (" + seen + " tag" + (seen == 1 ? "" : "s")
                + (tagPrefix.isEmpty() ? "" : " with that prefix") + " seen)");
      }
      return new Revision(best.get().tag(), best.get().sha());
    }

    @Override
    public String toString() {
      return "semver " + range + (tagPrefix.isEmpty() ? "" : " over tags " + tagPrefix + "*");
    }
  }

  /** One commit, pinned by its full SHA. */
  record Commit(String sha) implements RefSelector {
    public Commit {
      if (!Revision.isSha(sha)) {
        throw new IllegalArgumentException("commit '" + sha + "' is not a full 40-character lowercase hex SHA");
      }
    }

    @Override
    public boolean needsRemoteCheck() {
      return false;
    }

    @Override
    public Revision resolveIn(Map<String, String> refs) {
      return revision();
    }

    public Revision revision() {
      return new Revision(sha, sha);
    }

    @Override
    public String toString() {
      return "commit " + sha;
    }
  }

  private static String shortName(String name, String prefix, String what) {
    if (name == null || name.isBlank()) {
      throw new IllegalArgumentException("a " + what + " needs a name");
    }
    String shortName = name.trim().startsWith(prefix) ? name.trim().substring(prefix.length()) : name.trim();
    if (!Repository.isValidRefName(prefix + shortName)) {
      throw new IllegalArgumentException("'" + name + "' is not a valid Git " + what + " name");
    }
    return shortName;
  }

  private static SourceException notFound(String what) {
    return new SourceException(SourceException.Kind.REF_NOT_FOUND, what + " does not exist");
  }
}
