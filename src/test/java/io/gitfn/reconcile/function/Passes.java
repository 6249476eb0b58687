package io.gitfn.reconcile.function;

import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.gitfn.api.function.Function;
import io.gitfn.api.function.FunctionHistoryEntry;
import io.gitfn.api.function.FunctionStatus;
import io.gitfn.build.ContentKey;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/** The state of one pass over a Function for step tests: no Context, the build Jobs a test gives, a fixed clock. */
final class Passes {

  static final Instant NOW = Instant.parse("2026-11-27T12:00:00Z");
  static final Clock CLOCK = Clock.fixed(NOW, ZoneOffset.UTC);

  private Passes() {}

  static FunctionState of(Function fn) {
    return of(fn, List.of());
  }

  /** @param jobs the Function's build Jobs as the informer holds them */
  static FunctionState of(Function fn, Collection<Job> jobs) {
    return new FunctionState(fn, null, jobs, CLOCK, new KubernetesSerialization());
  }

  /** Gives {@code fn} a status whose history holds {@code entries}, newest first. */
  static Function withHistory(Function fn, FunctionHistoryEntry... entries) {
    if (fn.getStatus() == null) {
      fn.setStatus(new FunctionStatus());
    }
    fn.getStatus().setHistory(new ArrayList<>(List.of(entries)));
    return fn;
  }

  /** A history entry of {@code key}, built to {@code image} from {@code revision}. */
  static FunctionHistoryEntry entry(ContentKey key, String image, String revision, String outcome, String rolledOut) {
    FunctionHistoryEntry entry = new FunctionHistoryEntry();
    entry.setContentKey(key.value());
    entry.setImage(image);
    entry.setRevision(revision);
    entry.setOutcome(outcome);
    entry.setTime("2026-11-26T00:00:00Z");
    entry.setRolledOut(rolledOut);
    return entry;
  }
}
