package io.gitfn.preview;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Which pull requests qualify for a preview: those into the branch the repository follows (any, when it follows a
 * tag or commit); from a fork only with one of {@code spec.previews.labels}; and, when labels are listed, only with
 * one of them. A refusal says why, in words that follow "pull request #N".
 */
class PreviewRulesTest {

  private static final Duration TTL = Duration.ofHours(72);

  private static PreviewRules following(String branch, String... labels) {
    return new PreviewRules(List.of(labels), 5, TTL, Optional.of(branch));
  }

  private static PullRequest fromRepository(String base, String... labels) {
    return new PullRequest(7, "0".repeat(40), "feature", base, List.of(labels), false);
  }

  private static PullRequest fromFork(String base, String... labels) {
    return new PullRequest(7, "0".repeat(40), "feature", base, List.of(labels), true);
  }

  @Test
  void aPullRequestFromTheRepositoryIntoTheFollowedBranchQualifies() {
    assertThat(following("main").refusal(fromRepository("main"))).isEmpty();
  }

  @Test
  void aPullRequestFromTheRepositoryNeedsNoLabelWhenNoneIsListed() {
    assertThat(following("main").refusal(fromRepository("main", "wip"))).isEmpty();
  }

  @Test
  void aForkWithoutLabelsListedIsRefusedAndTheRefusalSaysLabelsWouldAllowIt() {
    assertThat(following("main").refusal(fromFork("main", "preview")))
        .contains("it comes from a fork, and spec.previews.labels names no label that would let a maintainer allow"
            + " it");
  }

  @Test
  void aForkWithoutAListedLabelIsRefused() {
    assertThat(following("main", "preview").refusal(fromFork("main", "wip")))
        .contains("it comes from a fork and carries none of the labels [preview]");
  }

  @Test
  void aForkCarryingAListedLabelQualifies() {
    assertThat(following("main", "preview", "safe-to-test").refusal(fromFork("main", "wip", "safe-to-test")))
        .isEmpty();
  }

  @Test
  void whenLabelsAreListedAPullRequestFromTheRepositoryNeedsOneToo() {
    assertThat(following("main", "preview").refusal(fromRepository("main")))
        .contains("it carries none of the labels [preview]");
    assertThat(following("main", "preview").refusal(fromRepository("main", "preview"))).isEmpty();
  }

  @Test
  void labelsAreMatchedExactly() {
    assertThat(following("main", "preview").refusal(fromRepository("main", "Preview"))).isPresent();
    assertThat(following("main", "preview").refusal(fromRepository("main", "preview-later"))).isPresent();
  }

  @Test
  void aPullRequestIntoAnotherBranchIsRefusedWhateverItsLabels() {
    assertThat(following("main", "preview").refusal(fromRepository("release-1", "preview")))
        .contains("it merges into release-1, not main, the branch the repository follows");
  }

  @Test
  void aRepositoryThatFollowsNoBranchPreviewsPullRequestsIntoAnyBase() {
    PreviewRules rules = new PreviewRules(List.of(), 5, TTL, Optional.empty());

    assertThat(rules.refusal(fromRepository("main"))).isEmpty();
    assertThat(rules.refusal(fromRepository("release-1"))).isEmpty();
  }

  @Test
  void aRepositoryThatFollowsNoBranchStillRefusesAForkWithoutALabel() {
    PreviewRules rules = new PreviewRules(List.of("preview"), 5, TTL, Optional.empty());

    assertThat(rules.refusal(fromFork("release-1"))).isPresent();
    assertThat(rules.refusal(fromFork("release-1", "preview"))).isEmpty();
  }

  @Test
  void atLeastOnePreviewRuns() {
    assertThatThrownBy(() -> new PreviewRules(List.of(), 0, TTL, Optional.of("main")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("maxActive is at least 1, not 0");
  }

  @Test
  void theRulesKeepTheirOwnCopyOfTheLabels() {
    List<String> labels = new ArrayList<>(List.of("preview"));
    PreviewRules rules = new PreviewRules(labels, 5, TTL, Optional.of("main"));

    labels.clear();

    assertThat(rules.labels()).containsExactly("preview");
  }
}
