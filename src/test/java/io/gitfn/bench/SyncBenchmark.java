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

  @Override
  public String name() {
    return "sync";
  }

  @Override
  public String description() {
    return "sync of a repository with " + FUNCTIONS + " Functions into a real kube-apiserver";
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
      metrics.add(Metric.millis("first sync: time", millisSince(start), 60_000.0));
      metrics.add(count("first sync: writes", first.writes(), null));
      metrics.add(count("first sync: Functions in the cluster", resourceVersions(client).size(), null));

      Map<String, String> before = resourceVersions(client);
      start = System.nanoTime();
      SyncResult same = sync.apply(commit(1, -1));
      metrics.add(Metric.millis("same revision: time", millisSince(start), null));
      metrics.add(count("same revision: writes", same.writes(), 0.0));
      Map<String, String> afterSame = resourceVersions(client);
      metrics.add(count("same revision: objects whose resourceVersion moved", moved(before, afterSame), 0.0));

      start = System.nanoTime();
      SyncResult oneChanged = sync.apply(commit(2, FUNCTIONS / 2));
      metrics.add(Metric.millis("1 of " + FUNCTIONS + " changed: time", millisSince(start), null));
      metrics.add(count("1 of " + FUNCTIONS + " changed: writes", oneChanged.writes(), 1.0));
      metrics.add(count("1 of " + FUNCTIONS + " changed: objects whose resourceVersion moved",
          moved(afterSame, resourceVersions(client)), 1.0));
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

  private static Metric count(String name, double value, Double target) {
    return new Metric(name, value, "n", target, true);
  }

  private static double millisSince(long start) {
    return (System.nanoTime() - start) / 1e6;
  }
}
