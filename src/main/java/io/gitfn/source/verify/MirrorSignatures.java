package io.gitfn.source.verify;

import io.gitfn.source.CommitSummary;
import io.gitfn.source.GitCredentials;
import io.gitfn.source.MirrorCache;
import io.gitfn.source.RefSelector;
import io.gitfn.source.RepositoryUrl;
import io.gitfn.source.Revision;
import io.gitfn.source.SourceException;
import io.gitfn.source.verify.RevisionVerifier.Target;
import java.util.Optional;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.Ref;
import org.eclipse.jgit.revwalk.RevWalk;

/** Verifies a revision in gitfn's mirror of its repository: where the mirror cache meets {@link RevisionVerifier}. */
public final class MirrorSignatures {

  private MirrorSignatures() {}

  /** The verdict, and the commit it is about (for a history entry). */
  public record Checked(Verdict verdict, CommitSummary commit) {}

  /**
   * Verifies {@code revision} in {@code mode}. In {@code Tag} and {@code TagAndHEAD} the tag is the one named
   * {@code revision.ref()}, which is what {@code ref.tag} and {@code ref.semver} resolve to; a tag ref the mirror
   * lacks is verified as a lightweight tag, and refused.
   *
   * @param lastVerified the commit last verified, for {@code Range}
   * @throws SourceException when the mirror cannot fetch or read the revision
   * @throws IllegalArgumentException when the tag no longer points at the revision's commit (it moved since the
   *     check that resolved it)
   */
  public static Checked verify(MirrorCache mirrors, RepositoryUrl url, GitCredentials credentials, Revision revision,
      VerifyMode mode, RevisionVerifier verifier, Optional<String> lastVerified) throws SourceException {
    return mirrors.inspect(url, credentials, revision, repository -> {
      ObjectId head = ObjectId.fromString(revision.sha());
      CommitSummary commit;
      try (RevWalk walk = new RevWalk(repository)) {
        commit = CommitSummary.of(walk.parseCommit(head));
      }
      ObjectId tag = null;
      if (mode == VerifyMode.Tag || mode == VerifyMode.TagAndHEAD) {
        Ref ref = repository.exactRef(RefSelector.TAGS + revision.ref());
        tag = ref == null ? head : ref.getObjectId();
      }
      ObjectId last = lastVerified.map(ObjectId::fromString).orElse(null);
      return new Checked(verifier.verify(repository, mode, new Target(head, tag, last)), commit);
    });
  }
}
