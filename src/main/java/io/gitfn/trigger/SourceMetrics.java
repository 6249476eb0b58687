package io.gitfn.trigger;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

/**
 * What the watcher's Git work comes to: {@code gitfn_git_checks_total{result=changed|unchanged|error}}, one per
 * check of a mirror (one {@code ls-remote} for all its sources), and {@code gitfn_git_fetches_total{result=
 * success|error}}, one per fetch of the revisions that moved.
 */
public final class SourceMetrics {

  private final Counter changed;
  private final Counter unchanged;
  private final Counter failed;
  private final Counter fetched;
  private final Counter fetchFailed;

  public SourceMetrics(MeterRegistry registry) {
    changed = check(registry, "changed");
    unchanged = check(registry, "unchanged");
    failed = check(registry, "error");
    fetched = fetch(registry, "success");
    fetchFailed = fetch(registry, "error");
  }

  /** Counts nothing anyone reads: for watchers outside the controller (local mode, tests, benchmarks). */
  public static SourceMetrics unexported() {
    return new SourceMetrics(new SimpleMeterRegistry());
  }

  void checked(boolean anyMoved, boolean anyFailed) {
    (anyFailed ? failed : anyMoved ? changed : unchanged).increment();
  }

  void fetched(boolean ok) {
    (ok ? fetched : fetchFailed).increment();
  }

  private static Counter check(MeterRegistry registry, String result) {
    return Counter.builder("gitfn.git.checks").description("Checks of a mirror's refs (ls-remote), by result")
        .tag("result", result).register(registry);
  }

  private static Counter fetch(MeterRegistry registry, String result) {
    return Counter.builder("gitfn.git.fetches").description("Fetches of revisions that moved and the mirror lacked, by result")
        .tag("result", result).register(registry);
  }
}
