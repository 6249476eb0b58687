package io.gitfn.rollback;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gitfn.api.function.FunctionHistoryEntry;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Which history entry a user's {@code --to} names, and why a pin or a revert to it is refused. */
class KnownRevisionsTest {

  private static final String C3 = "c3c3c3c3" + "3".repeat(32);
  private static final String C2 = "c2c2c2c2" + "2".repeat(32);
  private static final String C1 = "c1c1c1c1" + "1".repeat(32);
  private static final String TWIN = "c2c2c2c2" + "9".repeat(32);

  private final KnownRevisions history = new KnownRevisions("shop", "hello", List.of(
      entry("main@sha1:" + C3, "Failed", "k3", null),
      entry("main@sha1:" + C2, "Reused", "k1", "registry.local/shop-hello:k1"),
      entry("main@sha1:" + C1, "Succeeded", "k1", "registry.local/shop-hello:k1")));

  @Test
  void aPinTakesTheExactRevisionAFullShaOrAPrefixOfSevenHexDigits() {
    assertThat(history.pinnable("main@sha1:" + C2).getRevision()).isEqualTo("main@sha1:" + C2);
    assertThat(history.pinnable(C1).getRevision()).isEqualTo("main@sha1:" + C1);
    assertThat(history.pinnable("C1C1C1C").getRevision()).as("hex in any case").isEqualTo("main@sha1:" + C1);
    assertThat(history.pinnable("main@sha1:c2c2c2c").getRevision()).as("as gitfn prints it shortened")
        .isEqualTo("main@sha1:" + C2);
    assertThat(history.pinnable("c2c2c2c").getImage()).isEqualTo("registry.local/shop-hello:k1");
  }

  @Test
  void anUnknownRevisionListsTheKnownOnesWithTheirOutcomes() {
    assertThatThrownBy(() -> history.pinnable("deadbeef"))
        .isInstanceOf(RollbackException.class)
        .hasMessage("function shop/hello has no revision \"deadbeef\" in its history; known: "
            + "main@sha1:c3c3c3c (Failed), main@sha1:c2c2c2c (Reused), main@sha1:c1c1c1c (Succeeded)"
            + " (gitfn history function hello)");
    assertThatThrownBy(() -> new KnownRevisions("shop", "new", List.of()).pinnable("c1c1c1c"))
        .hasMessageContaining("function shop/new has no history yet, so no earlier image to pin");
  }

  @Test
  void aRevisionWhoseBuildFailedHasNoImageToPin() {
    assertThatThrownBy(() -> history.pinnable("c3c3c3c"))
        .hasMessage("the build of main@sha1:c3c3c3c failed for function shop/hello, so there is no image to pin;"
            + " pick a Succeeded or Reused revision: main@sha1:c2c2c2c (Reused), main@sha1:c1c1c1c (Succeeded)");
  }

  @Test
  void aPrefixThatTwoRevisionsShareOrThatIsTooShortIsRefused() {
    KnownRevisions twins = new KnownRevisions("shop", "hello", List.of(
        entry("main@sha1:" + C2, "Succeeded", "k2", "img:k2"), entry("main@sha1:" + TWIN, "Succeeded", "k9", "img:k9")));

    assertThatThrownBy(() -> twins.pinnable("c2c2c2c2"))
        .hasMessage("\"c2c2c2c2\" is ambiguous for function shop/hello: it matches main@sha1:" + C2 + ", main@sha1:"
            + TWIN + "; give more of the SHA");
    assertThat(twins.pinnable("c2c2c2c22").getImage()).isEqualTo("img:k2");
    assertThatThrownBy(() -> history.pinnable("c2c2")).hasMessageContaining("give at least 7 hex digits");
  }

  @Test
  void aRevisionThatRanSeveralImagesCannotBePinned() {
    KnownRevisions inline = new KnownRevisions("shop", "hand-made", List.of(
        entry("inline", "Succeeded", "k2", "img:k2"), entry("inline", "Succeeded", "k1", "img:k1")));
    KnownRevisions once = new KnownRevisions("shop", "hand-made", List.of(
        entry("inline", "Reused", "k1", "img:k1"), entry("inline", "Succeeded", "k1", "img:k1")));

    assertThatThrownBy(() -> inline.pinnable("inline")).hasMessageContaining("ran 2 different images");
    assertThat(once.pinnable("inline").getOutcome()).as("the newest entry with an image").isEqualTo("Reused");
  }

  @Test
  void aRevertTakesTheCommitOfAKnownRevisionOrAShaTheHistoryNoLongerHolds() {
    KnownRevisions.Commit known = history.commit("c1c1c1c");
    assertThat(known.commitish()).isEqualTo(C1);
    assertThat(known.hasImage()).isTrue();

    KnownRevisions.Commit failed = history.commit("main@sha1:" + C3);
    assertThat(failed.commitish()).isEqualTo(C3);
    assertThat(failed.hasImage()).as("its build failed").isFalse();

    KnownRevisions.Commit older = history.commit("ABCDEF0");
    assertThat(older.commitish()).as("git resolves it").isEqualTo("abcdef0");
    assertThat(older.known()).isNull();
    assertThat(history.commit("main@sha1:" + "a".repeat(40)).commitish()).isEqualTo("a".repeat(40));

    assertThatThrownBy(() -> history.commit("v1.2.3")).hasMessageContaining("has no revision \"v1.2.3\"");
    assertThatThrownBy(() -> new KnownRevisions("shop", "hand-made", List.of(entry("inline", "Succeeded", "k", "i")))
        .commit("inline")).hasMessageContaining("revision inline of function shop/hand-made is not a Git commit");
  }

  private static FunctionHistoryEntry entry(String revision, String outcome, String key, String image) {
    FunctionHistoryEntry entry = new FunctionHistoryEntry();
    entry.setRevision(revision);
    entry.setOutcome(outcome);
    entry.setContentKey(key);
    entry.setImage(image);
    entry.setTime("2026-03-01T10:00:00Z");
    return entry;
  }
}
