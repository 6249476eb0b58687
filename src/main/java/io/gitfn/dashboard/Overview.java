package io.gitfn.dashboard;

import io.gitfn.api.Labels;
import io.gitfn.api.function.Function;
import io.gitfn.api.repository.FunctionRepository;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The first page: every FunctionRepository with its Functions' counts, the ones that need a person first (stalled,
 * failed), then by namespace and name.
 *
 * @param functions every Function, whichever repository applied it, or none
 */
public record Overview(List<RepositorySummary> repositories, RepositorySummary.FunctionCounts functions) {

  private static final Comparator<RepositorySummary> ATTENTION_FIRST = Comparator
      .comparing((RepositorySummary r) -> switch (r.health()) {
        case STALLED -> 0;
        case FAILED -> 1;
        case RECONCILING, UNKNOWN -> 2;
        case READY, SUSPENDED -> 3;
      })
      .thenComparing(RepositorySummary::namespace)
      .thenComparing(RepositorySummary::name);

  /** The overview of what the caches hold now. */
  public static Overview of(Collection<FunctionRepository> repositories, Collection<Function> functions) {
    Map<String, List<Function>> byOwner = new HashMap<>();
    for (Function fn : functions) {
      String owner = fn.getMetadata().getLabels() == null ? null : fn.getMetadata().getLabels().get(Labels.REPOSITORY);
      if (owner != null) {
        byOwner.computeIfAbsent(owner, o -> new ArrayList<>()).add(fn);
      }
    }
    List<RepositorySummary> rows = new ArrayList<>();
    for (FunctionRepository repository : repositories) {
      String owner = Labels.repository(repository.getMetadata().getNamespace(), repository.getMetadata().getName());
      rows.add(RepositorySummary.of(repository, byOwner.getOrDefault(owner, List.of())));
    }
    rows.sort(ATTENTION_FIRST);
    return new Overview(List.copyOf(rows), RepositorySummary.FunctionCounts.of(functions));
  }

  /**
   * What the page shows, as a short digest: equal for equal overviews, so that a browser asking again is told
   * "unchanged" (304) and neither the page nor its rendering travels.
   */
  public String version() {
    return Versions.of(this);
  }
}
