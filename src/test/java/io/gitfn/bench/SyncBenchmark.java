package io.gitfn.bench;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.gitfn.api.function.Function;
import io.gitfn.reconcile.sync.FunctionFixture;
import io.gitfn.reconcile.sync.FunctionSync;
import io.gitfn.reconcile.sync.SyncRequest;
import io.gitfn.reconcile.sync.SyncResult;
import io.gitfn.testbed.KubeTestBed;
import io.gitfn.testbed.TestBedBinaries;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * One infra repository of {@value #FUNCTIONS} Functions synced into a real kube-apiserver: the first sync, a
 * second at the same revision, and a commit that changes one Function. Writes are counted twice: as the sync
 * reports them, and as the objects whose resourceVersion moved.
 */
final class SyncBenchmark implements Benchmark {

  private static final int FUNCTIONS = 1000;
  private static final String NAMESPACE = "bench";

  static final Row FIRST_TIME = Row.millis("first sync: time (" + FUNCTIONS + " dry-run applies, then " + FUNCTIONS
      + " applies, one at a time)", Target.atMost(60_000));
  static final Row FIRST_WRITES = Row.count("first sync: writes", Target.exactly(FUNCTIONS));
  static final Row FIRST_EXIST = Row.count("first sync: Functions in the cluster", Target.exactly(FUNCTIONS));
  static final Row SAME_TIME = Row.millis("same revision: time");
  static final Row SAME_WRITES = Row.count("same revision: writes", Target.exactly(0));
  static final Row SAME_MOVED = Row.count("same revision: objects whose resourceVersion moved", Target.exactly(0));
  static final Row CHANGED_TIME = Row.millis("1 of " + FUNCTIONS + " changed: time");
  static final Row CHANGED_WRITES = Row.count("1 of " + FUNCTIONS + " changed: writes", Target.exactly(1));
  static final Row CHANGED_MOVED =
      Row.count("1 of " + FUNCTIONS + " changed: objects whose resourceVersion moved", Target.exactly(1));

  @Override
  public String name() {
    return "sync";
  }

  @Override
  public String description() {
    return "sync of a repository with " + FUNCTIONS + " Functions into a real kube-apiserver";
  }

  @Override
  public List<Row> rows() {
    return List.of(FIRST_TIME, FIRST_WRITES, FIRST_EXIST, SAME_TIME, SAME_WRITES, SAME_MOVED, CHANGED_TIME,
        CHANGED_WRITES, CHANGED_MOVED);
  }

  @Override
  public List<Metric> run() throws Exception {
    Path runs = Files.createDirectories(TestBedBinaries.projectDir().resolve("target/bench/sync-runs"));
    try (KubeTestBed bed = KubeTestBed.start(Files.createTempDirectory(runs, "run-"));
        KubernetesClient client = bed.newClient()) {
      bed.installCrds();
      client.namespaces()
          .resource(new NamespaceBuilder().withNewMetadata().withName(NAMESPACE).endMetadata().build())
          .create();
      FunctionSync sync = new FunctionSync(client);
      List<Metric> metrics = new ArrayList<>();

      long start = System.nanoTime();
      SyncResult first = sync.apply(commit(1, -1));
      metrics.add(FIRST_TIME.value(millisSince(start)));
      metrics.add(FIRST_WRITES.value(first.writes()));
      metrics.add(FIRST_EXIST.value(resourceVersions(client).size()));

      Map<String, String> before = resourceVersions(client);
      start = System.nanoTime();
      SyncResult same = sync.apply(commit(1, -1));
      metrics.add(SAME_TIME.value(millisSince(start)));
      metrics.add(SAME_WRITES.value(same.writes()));
      Map<String, String> afterSame = resourceVersions(client);
      metrics.add(SAME_MOVED.value(moved(before, afterSame)));

      start = System.nanoTime();
      SyncResult oneChanged = sync.apply(commit(2, FUNCTIONS / 2));
      metrics.add(CHANGED_TIME.value(millisSince(start)));
      metrics.add(CHANGED_WRITES.value(oneChanged.writes()));
      metrics.add(CHANGED_MOVED.value(moved(afterSame, resourceVersions(client))));
      return metrics;
    }
  }

  private static SyncRequest commit(int commit, int changed) {
    List<Function> desired = IntStream.range(0, FUNCTIONS)
        .mapToObj(i -> FunctionFixture.inline(String.format("fn-%04d", i))
            .env("VERSION", i == changed ? "2" : "1")
            .build())
        .toList();
    return new SyncRequest(NAMESPACE, "infra", FunctionFixture.revision(commit), desired, true, false, Set.of());
  }

  private static Map<String, String> resourceVersions(KubernetesClient client) {
    return client.resources(Function.class).inNamespace(NAMESPACE).list().getItems().stream()
        .collect(Collectors.toMap(f -> f.getMetadata().getName(), f -> f.getMetadata().getResourceVersion()));
  }

  private static int moved(Map<String, String> before, Map<String, String> after) {
    return (int) after.entrySet().stream().filter(e -> !e.getValue().equals(before.get(e.getKey()))).count();
  }

  private static double millisSince(long start) {
    return (System.nanoTime() - start) / 1e6;
  }
}
