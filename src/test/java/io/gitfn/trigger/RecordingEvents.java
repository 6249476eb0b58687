package io.gitfn.trigger;

import io.gitfn.source.Revision;
import io.gitfn.source.SourceException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/** Records what a {@link SourceWatcher} reports, for tests and benchmarks to wait on. */
public final class RecordingEvents implements SourceEvents {

  public record Failure(SourceId source, SourceException error, Duration retryIn) {}

  private final Map<SourceId, Revision> latest = new ConcurrentHashMap<>();
  private final List<Failure> failures = new CopyOnWriteArrayList<>();
  private final Map<SourceId, Long> revisionCount = new ConcurrentHashMap<>();
  private final Map<SourceId, String> causes = new ConcurrentHashMap<>();

  @Override
  public void revision(SourceId source, Revision revision, String cause) {
    causes.put(source, cause);
    latest.put(source, revision);
    revisionCount.merge(source, 1L, Long::sum);
  }

  @Override
  public void failed(SourceId source, SourceException error, Duration retryIn) {
    failures.add(new Failure(source, error, retryIn));
  }

  public Optional<String> sha(SourceId source) {
    return Optional.ofNullable(latest.get(source)).map(Revision::sha);
  }

  /** What the check that found the source's latest revision was for: "interval", "webhook gitea 42", a trigger's reason. */
  public Optional<String> cause(SourceId source) {
    return Optional.ofNullable(causes.get(source));
  }

  public long revisions(SourceId source) {
    return revisionCount.getOrDefault(source, 0L);
  }

  public List<Failure> failures(SourceId source) {
    return failures.stream().filter(f -> f.source().equals(source)).toList();
  }
}
