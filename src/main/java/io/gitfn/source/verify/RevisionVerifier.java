package io.gitfn.source.verify;

import java.io.IOException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.revwalk.RevCommit;
import org.eclipse.jgit.revwalk.RevObject;
import org.eclipse.jgit.revwalk.RevTag;
import org.eclipse.jgit.revwalk.RevWalk;

/**
 * Verifies a revision held in a JGit repository (gitfn's mirror) against one repository's keys, in one of the
 * {@link VerifyMode}s. An instance holds one repository's keys and nothing else, and reads nothing global: two
 * repositories' verifications share no state.
 *
 * <h2>Forge keys</h2>
 *
 * A forge signs the merge commits its web UI makes with its own key (GitHub's web-flow key, GitLab's or Gitea's
 * instance key). Listing such a key as a forge key trusts it for exactly this: a commit whose signature verifies
 * with a forge key, and with none of the repository's own keys, verifies when
 *
 * <ul>
 *   <li>it is a merge commit, with two or more parents, and
 *   <li>every parent after the first verifies <em>on its own</em>: its own signature verifies with the repository's
 *       keys. A parent that is itself forge-signed does not count, so the rule never chains.
 * </ul>
 *
 * The first parent is the branch merged into, which the forge only moved forward; it is not checked by this rule
 * (in {@code Range} it is checked as any other new commit). The rule does not chain because the forge would
 * otherwise vouch for the first parent of a forge-signed parent, which nobody checked: after GitHub's "Update
 * branch", a pull request's head is a web-flow merge whose first parent is the unsigned branch itself. Such a
 * pull request is refused until someone signs its head. A forge-signed commit with one parent (a squash or a
 * rebase made in the UI, or an edit in the web editor) is refused with {@link Failure#UnknownKey}: the forge
 * wrote its content.
 *
 * <h2>Range</h2>
 *
 * {@code Range} checks every commit reachable from the new head and not from the last verified revision, oldest
 * first by commit time, and stops at the first that does not verify. At most {@link #MAX_RANGE_COMMITS} are walked;
 * past that the range is refused as {@link Failure#TooManyCommits} and nothing in it is trusted; a last verified
 * revision the repository no longer holds is refused as {@link Failure#LastVerifiedMissing}. With no last
 * verified revision (the first verification) there is nothing to compare with, so only the head is checked, as in
 * {@code HEAD}.
 */
public final class RevisionVerifier {

  /** The most commits one {@code Range} verification walks. */
  public static final int MAX_RANGE_COMMITS = 10_000;

  private final SignatureChecker repositoryKeys;
  private final SignatureChecker forgeKeys;
  private final boolean trustsForge;
  private final int maxRangeCommits;

  /**
   * @param keys the repository's keys, from its verification Secret
   * @param forgeKeys keys trusted only for merge commits (see the class doc); {@link VerificationKeys#none()} for
   *     none
   * @param clock now, for key expiry
   */
  public RevisionVerifier(VerificationKeys keys, VerificationKeys forgeKeys, Clock clock) {
    this(keys, forgeKeys, clock, MAX_RANGE_COMMITS);
  }

  RevisionVerifier(VerificationKeys keys, VerificationKeys forgeKeys, Clock clock, int maxRangeCommits) {
    this.repositoryKeys = new SignatureChecker(keys, clock);
    this.forgeKeys = new SignatureChecker(forgeKeys, clock);
    this.trustsForge = !forgeKeys.isEmpty();
    this.maxRangeCommits = maxRangeCommits;
  }

  /**
   * What a revision to verify is.
   *
   * @param head the commit to deploy; in {@code Tag} and {@code TagAndHEAD}, the commit the tag points at
   * @param tag the tag object that {@code ref.tag} or {@code ref.semver} resolved to, for {@code Tag} and
   *     {@code TagAndHEAD}; null otherwise
   * @param lastVerified the last revision verified in {@code Range}, null when there is none yet
   */
  public record Target(ObjectId head, ObjectId tag, ObjectId lastVerified) {
    public Target {
      Objects.requireNonNull(head, "head");
    }
  }

  /**
   * Verifies {@code target} in {@code mode}.
   *
   * @throws IllegalArgumentException in {@code Tag} or {@code TagAndHEAD}, when there is no tag or it does not
   *     point at the head: what is verified must be what is deployed
   */
  public Verdict verify(Repository repository, VerifyMode mode, Target target) throws IOException {
    return switch (mode) {
      case HEAD -> head(repository, target.head());
      case Tag -> tag(repository, tagOf(repository, target));
      case TagAndHEAD -> tagAndHead(repository, tagOf(repository, target));
      case Range -> range(repository, target.lastVerified(), target.head());
    };
  }

  private static ObjectId tagOf(Repository repository, Target target) throws IOException {
    if (target.tag() == null) {
      throw new IllegalArgumentException("verification mode Tag needs a tag; ref.tag or ref.semver names one");
    }
    try (RevWalk walk = new RevWalk(repository)) {
      RevCommit tagged = walk.parseCommit(target.tag());
      if (!tagged.equals(target.head())) {
        throw new IllegalArgumentException("tag " + target.tag().name() + " points at " + tagged.name()
            + ", not at the head " + target.head().name());
      }
    }
    return target.tag();
  }

  /** The commit {@code head}, with the forge-key rule. */
  public Verdict head(Repository repository, ObjectId head) throws IOException {
    try (RevWalk walk = new RevWalk(repository)) {
      return Verdict.of(VerifyMode.HEAD, List.of(commit(walk, walk.parseCommit(head), new HashMap<>())));
    }
  }

  /** The annotated tag object {@code tag}; a lightweight tag (an id that is a commit) is refused as unsigned. */
  public Verdict tag(Repository repository, ObjectId tag) throws IOException {
    try (RevWalk walk = new RevWalk(repository)) {
      return Verdict.of(VerifyMode.Tag, List.of(tagCheck(walk, tag)));
    }
  }

  /** The annotated tag object {@code tag}, then the commit it points at (through tags of tags). */
  public Verdict tagAndHead(Repository repository, ObjectId tag) throws IOException {
    try (RevWalk walk = new RevWalk(repository)) {
      SignatureCheck tagCheck = tagCheck(walk, tag);
      if (!tagCheck.verified()) {
        return Verdict.of(VerifyMode.TagAndHEAD, List.of(tagCheck));
      }
      RevCommit head = walk.parseCommit(tag);
      return Verdict.of(VerifyMode.TagAndHEAD, List.of(tagCheck, commit(walk, head, new HashMap<>())));
    }
  }

  /**
   * Every commit reachable from {@code newHead} and not from {@code lastVerified} (see the class doc);
   * {@code lastVerified} null checks the head alone.
   */
  public Verdict range(Repository repository, ObjectId lastVerified, ObjectId newHead) throws IOException {
    try (RevWalk walk = new RevWalk(repository)) {
      RevCommit head = walk.parseCommit(newHead);
      if (lastVerified == null) {
        return Verdict.of(VerifyMode.Range, List.of(commit(walk, head, new HashMap<>())));
      }
      if (!repository.getObjectDatabase().has(lastVerified)) {
        return Verdict.of(VerifyMode.Range, List.of(new SignatureCheck(head.name(), "commit",
            Optional.of(Failure.LastVerifiedMissing), "", "", "the last verified revision " + lastVerified.name()
                + " is not in the repository (history rewritten, or a new URL), so the new commits cannot be told"
                + " apart; verify in mode HEAD once, which makes the head the last verified revision, then return"
                + " to Range")));
      }
      walk.markStart(head);
      walk.markUninteresting(walk.parseCommit(lastVerified));
      List<RevCommit> commits = new ArrayList<>();
      for (RevCommit commit : walk) {
        if (commits.size() == maxRangeCommits) {
          SignatureCheck tooMany = new SignatureCheck(head.name(), "commit", Optional.of(Failure.TooManyCommits), "",
              "", "more than " + maxRangeCommits + " commits since the last verified revision "
                  + lastVerified.name() + ", too many to check in one pass; verify in mode HEAD once, which makes"
                  + " the head the last verified revision, then return to Range");
          return Verdict.of(VerifyMode.Range, List.of(tooMany));
        }
        commits.add(commit);
      }
      Collections.reverse(commits);
      Map<ObjectId, SignatureCheck> checked = new HashMap<>();
      List<SignatureCheck> checks = new ArrayList<>(commits.size());
      for (RevCommit commit : commits) {
        SignatureCheck check = commit(walk, commit, checked);
        checks.add(check);
        if (!check.verified()) {
          break;
        }
      }
      return Verdict.of(VerifyMode.Range, checks);
    }
  }

  private SignatureCheck tagCheck(RevWalk walk, ObjectId id) throws IOException {
    RevObject object = walk.parseAny(id);
    if (object instanceof RevTag tag) {
      return repositoryKeys.check(tag);
    }
    return new SignatureCheck(id.name(), "tag", Optional.of(Failure.UnsignedTag), "", "",
        "the tag is lightweight (it names " + object.getName() + " directly); only an annotated tag can be signed:"
            + " git tag -s");
  }

  // The repository's keys first; a forge key only for what the class doc says.
  private SignatureCheck commit(RevWalk walk, RevCommit commit, Map<ObjectId, SignatureCheck> checked)
      throws IOException {
    SignatureCheck own = own(walk, commit, checked);
    if (own.verified() || !trustsForge || own.failure().orElseThrow() != Failure.UnknownKey) {
      return own;
    }
    SignatureCheck byForge = forgeKeys.check(commit);
    if (byForge.failure().equals(Optional.of(Failure.UnknownKey))) {
      return own;
    }
    if (!byForge.verified()) {
      return byForge;
    }
    if (commit.getParentCount() < 2) {
      return new SignatureCheck(commit.name(), "commit", Optional.of(Failure.UnknownKey), byForge.fingerprint(),
          byForge.signer(), "signed by forge key " + byForge.fingerprint() + ", which is trusted for merge commits"
              + " only; this commit has " + commit.getParentCount() + " parent(s)");
    }
    List<String> parents = new ArrayList<>();
    for (int i = 1; i < commit.getParentCount(); i++) {
      RevCommit parent = walk.parseCommit(commit.getParent(i));
      SignatureCheck parentCheck = own(walk, parent, checked);
      if (!parentCheck.verified()) {
        return new SignatureCheck(parent.name(), "commit", parentCheck.failure(), parentCheck.fingerprint(),
            parentCheck.signer(), parentCheck.detail() + "; it is merged by " + commit.name()
                + ", which only forge key " + byForge.fingerprint() + " signed, and the forge is trusted only for"
                + " merges whose merged commits are signed by the repository's keys");
      }
      parents.add(parent.name());
    }
    return new SignatureCheck(commit.name(), "commit", Optional.empty(), byForge.fingerprint(), byForge.signer(),
        byForge.detail() + ", a forge key: a merge of " + String.join(", ", parents)
            + ", signed by the repository's keys");
  }

  // Cached per walk: a merged commit is checked once even when it is also in the range.
  private SignatureCheck own(RevWalk walk, RevCommit commit, Map<ObjectId, SignatureCheck> checked)
      throws IOException {
    SignatureCheck known = checked.get(commit);
    if (known != null) {
      return known;
    }
    walk.parseBody(commit);
    SignatureCheck check = repositoryKeys.check(commit);
    checked.put(commit.copy(), check);
    return check;
  }
}
