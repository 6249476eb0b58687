package io.gitfn.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gitfn.api.repository.GitRef;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RefSelectorTest {

  private static final String A = "a".repeat(40);
  private static final String B = "b".repeat(40);
  private static final String C = "c".repeat(40);
  private static final String D = "d".repeat(40);

  private final RemoteRefs remote =
      new RemoteRefs(
          Map.of(
              "HEAD", A,
              "refs/heads/main", A,
              "refs/heads/release/2026-11", B,
              "refs/heads/v9", C,
              "refs/tags/v9", D,
              "refs/tags/v1.2.3", B,
              "refs/tags/v1.10.0", C,
              "refs/tags/v2.0.0-rc.1", D,
              "refs/tags/orders/v1.4.0", D,
              "refs/tags/orders/v2.0.0", A),
          Instant.EPOCH);

  @Test
  void aBranchResolvesToItsCommitUnderItsShortName() throws Exception {
    assertThat(remote.resolve(new RefSelector.Branch("main")).toString()).isEqualTo("main@sha1:" + A);
    assertThat(remote.resolve(new RefSelector.Branch("release/2026-11")))
        .isEqualTo(new Revision("release/2026-11", B));
    assertThat(remote.resolve(new RefSelector.Branch("refs/heads/main"))).isEqualTo(new Revision("main", A));
  }

  @Test
  void aTagResolvesToTheCommitItWasPeeledTo() throws Exception {
    assertThat(remote.resolve(new RefSelector.Tag("v1.2.3"))).isEqualTo(new Revision("v1.2.3", B));
  }

  @Test
  void theHighestMatchingTagWins() throws Exception {
    assertThat(remote.resolve(new RefSelector.SemverRange("^1.0"))).isEqualTo(new Revision("v1.10.0", C));
    assertThat(remote.resolve(new RefSelector.SemverRange("1.2.x"))).isEqualTo(new Revision("v1.2.3", B));
  }

  @Test
  void aPreReleaseIsPickedOnlyWhenTheRangeNamesOne() throws Exception {
    assertThat(remote.resolve(new RefSelector.SemverRange("*"))).isEqualTo(new Revision("v1.10.0", C));
    assertThat(remote.resolve(new RefSelector.SemverRange(">=2.0.0-rc.0")))
        .isEqualTo(new Revision("v2.0.0-rc.1", D));
  }

  @Test
  void aTagPrefixLimitsTheTagsAndIsStrippedBeforeParsing() throws Exception {
    assertThat(remote.resolve(new RefSelector.SemverRange("^1", "orders/")))
        .isEqualTo(new Revision("orders/v1.4.0", D));
    assertThat(remote.resolve(new RefSelector.SemverRange("*", "orders/v")))
        .isEqualTo(new Revision("orders/v2.0.0", A));
  }

  @Test
  void aMissingRefIsNamed() {
    assertThatThrownBy(() -> remote.resolve(new RefSelector.Branch("gone/away")))
        .isInstanceOfSatisfying(SourceException.class, e -> {
          assertThat(e.kind()).isEqualTo(SourceException.Kind.REF_NOT_FOUND);
          assertThat(e.recoverable()).isFalse();
        })
        .hasMessageContaining("branch 'gone/away'");
    assertThatThrownBy(() -> remote.resolve(new RefSelector.Tag("v0")))
        .hasMessageContaining("tag 'v0'");
  }

  @Test
  void anUnmatchedRangeSaysHowManyTagsItSaw() {
    assertThatThrownBy(() -> remote.resolve(new RefSelector.SemverRange(">=3.0.0")))
        .isInstanceOfSatisfying(
            SourceException.class, e -> assertThat(e.kind()).isEqualTo(SourceException.Kind.REF_NOT_FOUND))
        .hasMessageContaining("'>=3.0.0'")
        .hasMessageContaining("6 tags seen");
    assertThatThrownBy(() -> remote.resolve(new RefSelector.SemverRange(">=3.0.0", "orders/")))
        .hasMessageContaining("starting with 'orders/'")
        .hasMessageContaining("2 tags with that prefix seen");
  }

  @Test
  void aFullShaIsACommitThatNeedsNoRemoteCheck() throws Exception {
    RefSelector selector = RefSelector.fromKymaReference(A);
    assertThat(selector).isEqualTo(new RefSelector.Commit(A));
    assertThat(selector.needsRemoteCheck()).isFalse();
    assertThat(selector.resolveIn(Map.of())).isEqualTo(new Revision(A, A));
    assertThat(new RefSelector.Branch("main").needsRemoteCheck()).isTrue();
  }

  @Test
  void aKymaReferenceIsABranchFirstThenATag() throws Exception {
    assertThat(RefSelector.fromKymaReference("v9")).isEqualTo(new RefSelector.BranchOrTag("v9"));
    assertThat(remote.resolve(RefSelector.fromKymaReference("v9"))).isEqualTo(new Revision("v9", C));
    assertThat(remote.resolve(RefSelector.fromKymaReference("v1.2.3"))).isEqualTo(new Revision("v1.2.3", B));
    assertThatThrownBy(() -> remote.resolve(RefSelector.fromKymaReference("nope")))
        .hasMessageContaining("branch or tag 'nope'");
  }

  @Test
  void aGitRefBecomesTheSelectorItSets() {
    GitRef ref = new GitRef();
    ref.setSemver("^1.2");
    ref.setTagPrefix("orders/");
    assertThat(RefSelector.of(ref)).isEqualTo(new RefSelector.SemverRange("^1.2", "orders/"));

    GitRef branch = new GitRef();
    branch.setBranch("release/2026-11");
    assertThat(RefSelector.of(branch)).isEqualTo(new RefSelector.Branch("release/2026-11"));

    GitRef tag = new GitRef();
    tag.setTag("v1");
    assertThat(RefSelector.of(tag)).isEqualTo(new RefSelector.Tag("v1"));

    GitRef commit = new GitRef();
    commit.setCommit(A);
    assertThat(RefSelector.of(commit)).isEqualTo(new RefSelector.Commit(A));

    assertThatThrownBy(() -> RefSelector.of(new GitRef())).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void invalidNamesAndShasAreRejected() {
    assertThatThrownBy(() -> new RefSelector.Branch("bad..name")).hasMessageContaining("not a valid Git branch");
    assertThatThrownBy(() -> new RefSelector.Commit("abc123")).hasMessageContaining("40-character");
    assertThatThrownBy(() -> new RefSelector.SemverRange("banana")).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void aRevisionIsRefAtSha() {
    assertThat(new Revision("release/2026-11", B).toString()).isEqualTo("release/2026-11@sha1:" + B);
    assertThatThrownBy(() -> new Revision("main", A.toUpperCase())).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new Revision("main", "abc")).isInstanceOf(IllegalArgumentException.class);
  }
}
