package io.gitfn.preview;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/**
 * Which previews run, which wait stopped for a push, and which go: at most {@code maxActive} run, the most recently
 * pushed first; one idle for the ttl stops; a stopped one stays stopped until its pull request gets a new head; a
 * closed pull request, or one that no longer qualifies, loses its preview.
 */
class PreviewPlannerTest {

  private static final Instant NOW = Instant.parse("2025-03-01T12:00:00Z");
  private static final Duration TTL = Duration.ofHours(72);

  // --- Fixtures: a repository that follows main, and pull requests from it into main. ---

  private static PreviewRules rules(int maxActive) {
    return new PreviewRules(List.of(), maxActive, TTL, Optional.of("main"));
  }

  private static PreviewRules rules() {
    return rules(5);
  }

  /** The head of pull request {@code number} after its {@code push}th push: 40 hex digits, unique in the first 12. */
  private static String sha(long number, int push) {
    return String.format("%04x%08x%028x", push, number, 0);
  }

  private static PullRequest pullRequest(long number) {
    return pullRequest(number, 1);
  }

  private static PullRequest pullRequest(long number, int push) {
    return new PullRequest(number, sha(number, push), "feature-" + number, "main", List.of(), false);
  }

  private static PreviewRecord running(long number, Instant pushedAt) {
    return new PreviewRecord(number, sha(number, 1), "feature-" + number, true, pushedAt, pushedAt, null);
  }

  private static PreviewRecord stopped(long number, Instant pushedAt, String message) {
    return new PreviewRecord(number, sha(number, 1), "feature-" + number, false, pushedAt, pushedAt, message);
  }

  /** News from webhooks: what they say is open, and nothing of the others. */
  private static PullRequestNews webhooks(PullRequest... open) {
    return new PullRequestNews(byNumber(open), Map.of(), false);
  }

  /** The forge's whole list of open pull requests. */
  private static PullRequestNews listing(PullRequest... open) {
    return new PullRequestNews(byNumber(open), Map.of(), true);
  }

  private static Map<Long, PullRequest> byNumber(PullRequest... pullRequests) {
    return Arrays.stream(pullRequests).collect(Collectors.toMap(PullRequest::number, Function.identity()));
  }

  private static PreviewPlan plan(PreviewRules rules, List<PreviewRecord> records, PullRequestNews news) {
    return PreviewPlanner.plan(rules, records, news, NOW);
  }

  private static List<Long> runningNumbers(PreviewPlan plan) {
    return plan.run().stream().map(PreviewPlan.Run::number).toList();
  }

  private static List<Long> stoppedNumbers(PreviewPlan plan) {
    return plan.stopped().stream().map(PreviewPlan.Stopped::number).toList();
  }

  private static PreviewPlan.Stopped stoppedOf(PreviewPlan plan, long number) {
    return plan.stopped().stream().filter(s -> s.number() == number).findFirst().orElseThrow();
  }

  private static Instant ago(Duration duration) {
    return NOW.minus(duration);
  }

  // --- Which pull requests get a preview ---

  @Test
  void aNewPullRequestThatQualifiesStartsAPreviewAtItsHead() {
    PreviewPlan plan = plan(rules(), List.of(), webhooks(pullRequest(7)));

    assertThat(plan.run()).containsExactly(new PreviewPlan.Run(7, sha(7, 1), "feature-7", NOW, NOW, true));
    assertThat(plan.stopped()).isEmpty();
    assertThat(plan.removed()).isEmpty();
  }

  @Test
  void aNewPullRequestFromAForkWithoutAListedLabelGetsNothing() {
    PullRequest fork = new PullRequest(7, sha(7, 1), "feature", "main", List.of("wip"), true);

    PreviewPlan plan = plan(new PreviewRules(List.of("preview"), 5, TTL, Optional.of("main")), List.of(),
        webhooks(fork));

    assertThat(plan).isEqualTo(new PreviewPlan(List.of(), List.of(), List.of()));
  }

  @Test
  void aNewPullRequestFromAForkCarryingAListedLabelStarts() {
    PullRequest fork = new PullRequest(7, sha(7, 1), "feature", "main", List.of("preview"), true);

    PreviewPlan plan = plan(new PreviewRules(List.of("preview"), 5, TTL, Optional.of("main")), List.of(),
        webhooks(fork));

    assertThat(runningNumbers(plan)).containsExactly(7L);
  }

  @Test
  void whenLabelsAreListedANewPullRequestCarryingNoneGetsNothing() {
    PreviewPlan plan = plan(new PreviewRules(List.of("preview"), 5, TTL, Optional.of("main")), List.of(),
        webhooks(pullRequest(7)));

    assertThat(plan).isEqualTo(new PreviewPlan(List.of(), List.of(), List.of()));
  }

  @Test
  void aNewPullRequestIntoAnotherBranchGetsNothing() {
    PullRequest intoRelease = new PullRequest(7, sha(7, 1), "feature", "release-1", List.of(), false);

    assertThat(plan(rules(), List.of(), webhooks(intoRelease))).isEqualTo(new PreviewPlan(List.of(), List.of(),
        List.of()));
  }

  @Test
  void aRepositoryThatFollowsNoBranchPreviewsPullRequestsIntoAnyBase() {
    PullRequest intoRelease = new PullRequest(7, sha(7, 1), "feature", "release-1", List.of(), false);

    PreviewPlan plan = plan(new PreviewRules(List.of(), 5, TTL, Optional.empty()), List.of(),
        webhooks(intoRelease));

    assertThat(runningNumbers(plan)).containsExactly(7L);
  }

  // --- maxActive ---

  @Test
  void pastMaxActiveTheHighestNumbersRunAndTheOthersWaitStopped() {
    PreviewPlan plan = plan(rules(2), List.of(), webhooks(pullRequest(3), pullRequest(4), pullRequest(5)));

    assertThat(runningNumbers(plan)).containsExactly(5L, 4L);
    assertThat(plan.run()).allSatisfy(run -> assertThat(run.started()).isTrue());
    PreviewPlan.Stopped third = stoppedOf(plan, 3);
    assertThat(third.stopping()).as("it never ran, so there is nothing to stop").isFalse();
    assertThat(third.message()).contains("spec.previews.maxActive").contains("2 previews run at once")
        .endsWith("a push brings it back");
    assertThat(third.pushedAt()).isEqualTo(NOW);
    assertThat(third.headSha()).isEqualTo(sha(3, 1));
  }

  @Test
  void atCapacityANewPullRequestStopsThePreviewPushedToLongestAgo() {
    List<PreviewRecord> records = List.of(running(1, ago(Duration.ofHours(3))), running(2, ago(Duration.ofHours(1))),
        running(3, ago(Duration.ofHours(2))));

    PreviewPlan plan = plan(rules(3), records, webhooks(pullRequest(4)));

    assertThat(runningNumbers(plan)).containsExactly(4L, 2L, 3L);
    PreviewPlan.Stopped oldest = stoppedOf(plan, 1);
    assertThat(oldest.stopping()).as("it ran until now: its namespace goes").isTrue();
    assertThat(oldest.message()).contains("spec.previews.maxActive");
    assertThat(oldest.pushedAt()).isEqualTo(ago(Duration.ofHours(3)));
    assertThat(plan.removed()).isEmpty();
  }

  @Test
  void previewsThatKeepRunningAreNeitherStartedNorMoved() {
    PreviewRecord record = running(1, ago(Duration.ofHours(1)));

    PreviewPlan plan = plan(rules(), List.of(record), webhooks(pullRequest(1)));

    assertThat(plan.run()).containsExactly(new PreviewPlan.Run(1, sha(1, 1), "feature-1", record.createdAt(),
        record.pushedAt(), false));
  }

  // --- ttl ---

  @Test
  void aRunningPreviewWithoutAPushForTheTtlStops() {
    PreviewPlan plan = plan(rules(), List.of(running(1, ago(TTL))), PullRequestNews.none());

    assertThat(runningNumbers(plan)).isEmpty();
    PreviewPlan.Stopped idle = stoppedOf(plan, 1);
    assertThat(idle.stopping()).isTrue();
    assertThat(idle.message()).isEqualTo("stopped after 72h0m0s without a push (spec.previews.ttl); a push brings it"
        + " back");
    assertThat(idle.pushedAt()).isEqualTo(ago(TTL));
  }

  @Test
  void aRunningPreviewPushedToWithinTheTtlRuns() {
    PreviewPlan plan = plan(rules(), List.of(running(1, ago(TTL.minusSeconds(1)))), PullRequestNews.none());

    assertThat(runningNumbers(plan)).containsExactly(1L);
    assertThat(plan.stopped()).isEmpty();
  }

  @Test
  void aStoppedPreviewStaysStoppedWithItsMessageWhileItsHeadIsTheSame() {
    PreviewRecord record = stopped(1, ago(Duration.ofDays(5)), "stopped after 72h0m0s without a push");

    PreviewPlan plan = plan(rules(), List.of(record), listing(pullRequest(1)));

    assertThat(plan.run()).isEmpty();
    assertThat(plan.stopped()).containsExactly(new PreviewPlan.Stopped(1, sha(1, 1), "feature-1", record.createdAt(),
        record.pushedAt(), "stopped after 72h0m0s without a push", false));
  }

  @Test
  void aStoppedPreviewStaysStoppedEvenWhenThereIsRoom() {
    PreviewPlan plan = plan(rules(5), List.of(stopped(1, ago(Duration.ofHours(1)), "stopped to make room")),
        webhooks(pullRequest(1)));

    assertThat(runningNumbers(plan)).isEmpty();
    assertThat(stoppedNumbers(plan)).containsExactly(1L);
  }

  @Test
  void aNewHeadBringsAStoppedPreviewBack() {
    PreviewRecord record = stopped(1, ago(Duration.ofDays(5)), "stopped after 72h0m0s without a push");

    PreviewPlan plan = plan(rules(), List.of(record), webhooks(pullRequest(1, 2)));

    assertThat(plan.run()).containsExactly(new PreviewPlan.Run(1, sha(1, 2), "feature-1", record.createdAt(), NOW,
        true));
    assertThat(plan.stopped()).isEmpty();
  }

  // --- A push ---

  @Test
  void aNewHeadMovesARunningPreview() {
    PreviewRecord record = running(1, ago(Duration.ofHours(5)));

    PreviewPlan plan = plan(rules(), List.of(record), webhooks(pullRequest(1, 2)));

    assertThat(plan.run()).containsExactly(new PreviewPlan.Run(1, sha(1, 2), "feature-1", record.createdAt(), NOW,
        false));
  }

  @Test
  void aNewHeadKeepsAPreviewThatTheTtlWouldHaveStopped() {
    PreviewPlan plan = plan(rules(), List.of(running(1, ago(TTL.plusHours(1)))), webhooks(pullRequest(1, 2)));

    assertThat(runningNumbers(plan)).containsExactly(1L);
    assertThat(plan.run().get(0).pushedAt()).isEqualTo(NOW);
  }

  @Test
  void aBitbucketHeadOfTwelveDigitsIsTheSameHeadAsTheWholeName() {
    String whole = sha(1, 1);
    PullRequest bitbucket = new PullRequest(1, whole.substring(0, 12), "feature-1", "main", List.of(), false);

    assertThat(bitbucket.headIs(whole)).isTrue();
    assertThat(pullRequest(1).headIs(whole.substring(0, 12))).isTrue();
    assertThat(bitbucket.headIs(sha(1, 2))).isFalse();
    assertThat(bitbucket.headIs("")).isFalse();
    assertThat(bitbucket.headIs(null)).isFalse();

    PreviewRecord record = running(1, ago(Duration.ofHours(1)));
    PreviewPlan plan = plan(rules(), List.of(record), webhooks(bitbucket));
    assertThat(plan.run()).as("no push: the preview is neither moved nor restarted")
        .containsExactly(new PreviewPlan.Run(1, whole, "feature-1", record.createdAt(), record.pushedAt(), false));
  }

  // --- Closed pull requests, and those that no longer qualify ---

  @Test
  void aClosedPullRequestLosesItsPreviewWithWhatHappened() {
    PullRequestNews news = new PullRequestNews(Map.of(), Map.of(1L, "was merged", 2L, "was closed"), false);

    PreviewPlan plan = plan(rules(), List.of(running(1, ago(Duration.ofHours(1))),
        stopped(2, ago(Duration.ofDays(4)), "stopped")), news);

    assertThat(plan.removed()).containsExactly(new PreviewPlan.Removed(1, "was merged"),
        new PreviewPlan.Removed(2, "was closed"));
    assertThat(plan.run()).isEmpty();
    assertThat(plan.stopped()).isEmpty();
  }

  @Test
  void aPullRequestClosedAndOpenInTheSameNewsCountsAsClosed() {
    PullRequestNews news = new PullRequestNews(byNumber(pullRequest(1)), Map.of(1L, "was merged"), false);

    PreviewPlan plan = plan(rules(), List.of(running(1, ago(Duration.ofHours(1)))), news);

    assertThat(plan.removed()).containsExactly(new PreviewPlan.Removed(1, "was merged"));
    assertThat(plan.run()).isEmpty();
  }

  @Test
  void aPreviewMissingFromTheForgesWholeListIsRemovedAsClosed() {
    PreviewPlan plan = plan(rules(), List.of(running(1, ago(Duration.ofHours(1))), running(2, ago(Duration.ofHours(
        1)))), listing(pullRequest(2)));

    assertThat(plan.removed()).containsExactly(new PreviewPlan.Removed(1, "is closed"));
    assertThat(runningNumbers(plan)).containsExactly(2L);
  }

  @Test
  void webhooksThatSayNothingOfAPreviewLeaveItAsItWas() {
    PreviewRecord runs = running(1, ago(Duration.ofHours(1)));
    PreviewRecord waits = stopped(2, ago(Duration.ofDays(4)), "stopped to make room");

    PreviewPlan plan = plan(rules(), List.of(runs, waits), webhooks(pullRequest(3)));

    assertThat(plan.run()).contains(new PreviewPlan.Run(1, sha(1, 1), "feature-1", runs.createdAt(), runs.pushedAt(),
        false));
    assertThat(plan.stopped()).containsExactly(new PreviewPlan.Stopped(2, sha(2, 1), "feature-2", waits.createdAt(),
        waits.pushedAt(), "stopped to make room", false));
    assertThat(plan.removed()).isEmpty();
  }

  @Test
  void aPullRequestThatLostItsLabelLosesItsPreviewAndIsToldWhy() {
    PreviewRules rules = new PreviewRules(List.of("preview"), 5, TTL, Optional.of("main"));

    PreviewPlan plan = plan(rules, List.of(running(1, ago(Duration.ofHours(1)))), webhooks(pullRequest(1)));

    assertThat(plan.removed()).containsExactly(new PreviewPlan.Removed(1,
        "no longer gets a preview: it carries none of the labels [preview]"));
    assertThat(plan.run()).isEmpty();
  }

  @Test
  void aPullRequestRetargetedToAnotherBranchLosesItsPreview() {
    PullRequest retargeted = new PullRequest(1, sha(1, 1), "feature-1", "release-1", List.of(), false);

    PreviewPlan plan = plan(rules(), List.of(running(1, ago(Duration.ofHours(1)))), webhooks(retargeted));

    assertThat(plan.removed()).singleElement().satisfies(removed -> assertThat(removed.why())
        .startsWith("no longer gets a preview: it merges into release-1, not main"));
  }

  // --- Bounds ---

  @Test
  void atMostMaxStoppedWaitingPreviewsAreRememberedTheMostRecentlyPushed() {
    List<PreviewRecord> records = new ArrayList<>();
    for (long number = 1; number <= 250; number++) {
      records.add(stopped(number, ago(Duration.ofMinutes(1000 - number)), "stopped to make room"));
    }

    PreviewPlan plan = plan(rules(), records, PullRequestNews.none());

    assertThat(plan.stopped()).hasSize(PreviewPlanner.MAX_STOPPED);
    assertThat(stoppedNumbers(plan)).containsExactlyElementsOf(LongStream.rangeClosed(51, 250).map(n -> 301 - n).boxed()
        .toList());
  }

  @Test
  void previewsBeingStoppedAreNeverForgottenPastMaxStopped() {
    List<PreviewRecord> records = new ArrayList<>();
    for (long number = 1; number <= 250; number++) {
      records.add(stopped(number, ago(Duration.ofHours(1)), "stopped to make room"));
    }
    // Idle for longer than the ttl: pushed to before every waiting one, so last in line.
    records.add(running(1001, ago(TTL.plusHours(1))));
    records.add(running(1002, ago(TTL.plusHours(2))));

    PreviewPlan plan = plan(rules(), records, PullRequestNews.none());

    assertThat(plan.stopped()).hasSize(PreviewPlanner.MAX_STOPPED + 2);
    assertThat(plan.stopped()).filteredOn(PreviewPlan.Stopped::stopping).extracting(PreviewPlan.Stopped::number)
        .containsExactlyInAnyOrder(1001L, 1002L);
  }

  @Test
  void aFloodOfPullRequestsRunsMaxActiveOfThemAndRemembersMaxStoppedOfTheRest() {
    PullRequest[] flood = LongStream.rangeClosed(1, 1000).mapToObj(PreviewPlannerTest::pullRequest)
        .toArray(PullRequest[]::new);

    // No timing assertion: the plan is a sort of a thousand, and the test just has to finish.
    PreviewPlan plan = plan(rules(5), List.of(), listing(flood));

    assertThat(runningNumbers(plan)).containsExactly(1000L, 999L, 998L, 997L, 996L);
    assertThat(plan.stopped()).hasSize(PreviewPlanner.MAX_STOPPED)
        .noneMatch(PreviewPlan.Stopped::stopping)
        .allSatisfy(s -> assertThat(s.message()).contains("spec.previews.maxActive"));
    // The others are forgotten quietly: they never ran, so there is nothing to stop.
    assertThat(stoppedNumbers(plan)).containsExactlyElementsOf(LongStream.rangeClosed(1, PreviewPlanner.MAX_STOPPED)
        .map(n -> 996 - n).boxed().toList());
    assertThat(plan.removed()).isEmpty();
  }

  @Test
  void listingMorePullRequestsThanAreRememberedKeepsTheRunningPreviewsFromOneListingToTheNext() {
    PullRequest[] open = LongStream.rangeClosed(1, 300).mapToObj(PreviewPlannerTest::pullRequest)
        .toArray(PullRequest[]::new);
    PreviewPlan first = plan(rules(5), List.of(), listing(open));
    List<PreviewRecord> records = records(first);

    for (int listing = 1; listing <= 3; listing++) {
      PreviewPlan next = plan(rules(5), records, listing(open));
      assertThat(runningNumbers(next)).as("listing %d", listing).containsExactlyElementsOf(runningNumbers(first));
      assertThat(next.stopped()).noneMatch(PreviewPlan.Stopped::stopping);
      records = records(next);
    }
  }

  @Test
  void aPullRequestAWebhookJustOpenedPushesTheLeastRecentlyPushedPreviewOutWhereAListedOneWaits() {
    List<PreviewRecord> full = List.of(running(1, ago(Duration.ofHours(3))), running(2, ago(Duration.ofHours(1))));

    PreviewPlan listed = plan(rules(2), full, listing(pullRequest(1), pullRequest(2), pullRequest(3)));
    PreviewPlan opened = plan(rules(2), full, webhooks(pullRequest(3)));

    assertThat(runningNumbers(listed)).containsExactlyInAnyOrder(1L, 2L);
    assertThat(stoppedOf(listed, 3).stopping()).isFalse();
    assertThat(runningNumbers(opened)).containsExactly(3L, 2L);
    assertThat(stoppedOf(opened, 1).stopping()).isTrue();
  }

  /** The records a status would hold after {@code plan}. */
  private static List<PreviewRecord> records(PreviewPlan plan) {
    List<PreviewRecord> records = new ArrayList<>();
    plan.run().forEach(r -> records.add(new PreviewRecord(r.number(), r.headSha(), r.headRef(), true, r.createdAt(),
        r.pushedAt(), null)));
    plan.stopped().forEach(s -> records.add(new PreviewRecord(s.number(), s.headSha(), s.headRef(), false,
        s.createdAt(), s.pushedAt(), s.message())));
    return records;
  }

  // --- Determinism ---

  @Test
  void theSameRecordsNewsAndTimeGiveTheSamePlan() {
    List<PreviewRecord> records = new ArrayList<>();
    for (long number = 1; number <= 40; number++) {
      records.add(number % 3 == 0 ? stopped(number, ago(Duration.ofHours(number % 7)), "stopped")
          : running(number, ago(Duration.ofHours(number % 5 * 20))));
    }
    List<PullRequest> open = new ArrayList<>();
    for (long number = 2; number <= 60; number += 2) {
      open.add(pullRequest(number, number % 4 == 0 ? 2 : 1));
    }
    PullRequestNews news = new PullRequestNews(byNumber(open.toArray(PullRequest[]::new)), Map.of(5L, "was merged"),
        true);
    List<PreviewRecord> reversed = new ArrayList<>(records);
    Collections.reverse(reversed);

    PreviewPlan first = plan(rules(4), records, news);

    assertThat(plan(rules(4), records, news)).isEqualTo(first);
    assertThat(plan(rules(4), reversed, news)).as("the order of the records does not count").isEqualTo(first);
    assertThat(first.run()).hasSize(4);
  }
}
