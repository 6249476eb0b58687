package io.gitfn.preview;

import io.gitfn.api.GoDuration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Decides which pull requests have a running preview: those that qualify ({@link PreviewRules#refusal}), at most
 * {@code maxActive}, the most recently pushed first, none idle for longer than the ttl. A stopped preview stays
 * stopped until its pull request gets a new head. Pure: the same records, news and time give the same plan, so a
 * restarted controller decides as the old one would have.
 */
public final class PreviewPlanner {

  /**
   * At most this many stopped previews are remembered (the most recently pushed). Past it, a forgotten one that
   * still qualifies and shows up in the forge's list counts as new, and takes a free place only
   * ({@link PullRequestNews#fresh}): it never pushes a running one out.
   */
  public static final int MAX_STOPPED = 200;

  private PreviewPlanner() {}

  public static PreviewPlan plan(PreviewRules rules, List<PreviewRecord> records, PullRequestNews news,
      Instant now) {
    List<PreviewPlan.Removed> removed = new ArrayList<>();
    // Every preview that could run, and those that stay stopped.
    List<PreviewPlan.Run> candidates = new ArrayList<>();
    List<PreviewPlan.Stopped> stopped = new ArrayList<>();
    Map<Long, PreviewRecord> known = new TreeMap<>();
    records.forEach(r -> known.put(r.number(), r));
    for (PreviewRecord record : known.values()) {
      long number = record.number();
      PullRequest pullRequest = news.open().get(number);
      if (news.closed().containsKey(number)) {
        removed.add(new PreviewPlan.Removed(number, news.closed().get(number)));
        continue;
      }
      if (pullRequest == null) {
        if (news.complete()) {
          removed.add(new PreviewPlan.Removed(number, "is closed"));
        } else {
          keep(record, rules, now, candidates, stopped);
        }
        continue;
      }
      Optional<String> refusal = rules.refusal(pullRequest);
      if (refusal.isPresent()) {
        removed.add(new PreviewPlan.Removed(number, "no longer gets a preview: " + refusal.get()));
      } else if (!pullRequest.headIs(record.headSha())) {
        candidates.add(new PreviewPlan.Run(number, pullRequest.headSha(), pullRequest.headRef(), record.createdAt(),
            now, !record.running()));
      } else {
        keep(record, rules, now, candidates, stopped);
      }
    }
    List<PreviewPlan.Run> listed = new ArrayList<>();
    for (PullRequest pullRequest : new TreeMap<>(news.open()).values()) {
      if (!known.containsKey(pullRequest.number()) && !news.closed().containsKey(pullRequest.number())
          && rules.refusal(pullRequest).isEmpty()) {
        PreviewPlan.Run candidate = new PreviewPlan.Run(pullRequest.number(), pullRequest.headSha(),
            pullRequest.headRef(), now, now, true);
        (news.fresh().contains(pullRequest.number()) ? candidates : listed).add(candidate);
      }
    }
    // Newest push first; among equals (new ones), the higher number, opened later. Those only listed come last.
    Comparator<PreviewPlan.Run> newestFirst = Comparator.comparing(PreviewPlan.Run::pushedAt)
        .thenComparingLong(PreviewPlan.Run::number).reversed();
    candidates.sort(newestFirst);
    listed.sort(newestFirst);
    candidates.addAll(listed);
    List<PreviewPlan.Run> run = new ArrayList<>();
    for (PreviewPlan.Run candidate : candidates) {
      if (run.size() < rules.maxActive()) {
        run.add(candidate);
      } else {
        stopped.add(new PreviewPlan.Stopped(candidate.number(), candidate.headSha(), candidate.headRef(),
            candidate.createdAt(), candidate.pushedAt(), "stopped to make room: " + rules.maxActive()
                + " previews run at once (spec.previews.maxActive), and those running were pushed to more recently;"
                + " a push brings it back", !candidate.started()));
      }
    }
    stopped.sort(Comparator.comparing(PreviewPlan.Stopped::pushedAt).thenComparingLong(PreviewPlan.Stopped::number)
        .reversed());
    if (stopped.size() > MAX_STOPPED) {
      // Forgotten quietly: a stopped preview has no namespace to remove.
      List<PreviewPlan.Stopped> kept = new ArrayList<>(stopped.subList(0, MAX_STOPPED));
      stopped.subList(MAX_STOPPED, stopped.size()).stream().filter(PreviewPlan.Stopped::stopping).forEach(kept::add);
      stopped = kept;
    }
    return new PreviewPlan(run, stopped, removed);
  }

  private static void keep(PreviewRecord record, PreviewRules rules, Instant now, List<PreviewPlan.Run> candidates,
      List<PreviewPlan.Stopped> stopped) {
    if (!record.running()) {
      stopped.add(new PreviewPlan.Stopped(record.number(), record.headSha(), record.headRef(), record.createdAt(),
          record.pushedAt(), record.message(), false));
    } else if (!record.pushedAt().plus(rules.ttl()).isAfter(now)) {
      stopped.add(new PreviewPlan.Stopped(record.number(), record.headSha(), record.headRef(), record.createdAt(),
          record.pushedAt(), "stopped after " + GoDuration.format(rules.ttl()) + " without a push (spec.previews.ttl);"
              + " a push brings it back", true));
    } else {
      candidates.add(new PreviewPlan.Run(record.number(), record.headSha(), record.headRef(), record.createdAt(),
          record.pushedAt(), false));
    }
  }
}
