package io.gitfn.bench;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.gitfn.api.function.Function;
import io.gitfn.manifest.Manifest;
import io.gitfn.manifest.ManifestOptions;
import io.gitfn.manifest.ManifestReader;
import io.gitfn.reconcile.sync.FunctionSync;
import io.gitfn.reconcile.sync.SyncRequest;
import io.gitfn.reconcile.sync.SyncResult;
import io.gitfn.source.GitCredentials;
import io.gitfn.source.Mirror;
import io.gitfn.source.MirrorCache;
import io.gitfn.source.RefSelector;
import io.gitfn.source.RepositoryUrl;
import io.gitfn.source.Revision;
import io.gitfn.source.SourceSettings;
import io.gitfn.testbed.KubeTestBed;
import io.gitfn.testbed.TestBedBinaries;
import io.gitfn.testbed.git.RunningGitServers;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * An infra repository of {@value #FUNCTIONS} Functions on the in-process Git server, synced into a real
 * kube-apiserver the way the FunctionRepository reconciler does it: the mirror resolves and fetches the branch, the
 * manifest reader reads the revision's files, and the sync applies them. Three syncs: the first, the same revision
 * again, and a commit that changes one Function. Writes are counted twice: as the sync reports them, and as the
 * objects whose resourceVersion moved.
 */
final class SyncBenchmark implements Benchmark {

  private static final int FUNCTIONS = 1000;
  private static final String NAMESPACE = "bench";
  private static final String REPOSITORY = "infra";

  static final Row FIRST_TIME = Row.millis("first sync: time", Target.atMost(60_000));
  static final Row FIRST_GIT = Row.millis("  ls-remote and fetch of the commit");
  static final Row FIRST_READ = Row.millis("  read and validate " + FUNCTIONS + " Function files");
  static final Row FIRST_APPLY = Row.millis("  " + FUNCTIONS + " dry-run applies, then " + FUNCTIONS
      + " applies, one at a time");
  static final Row FIRST_WRITES = Row.count("first sync: writes", Target.exactly(FUNCTIONS));
  static final Row FIRST_EXIST = Row.count("first sync: Functions in the cluster", Target.exactly(FUNCTIONS));
  static final Row SAME_TIME = Row.millis("same revision again: time (ls-remote, read, compare)");
  static final Row SAME_WRITES = Row.count("same revision again: writes", Target.exactly(0));
  static final Row SAME_MOVED =
      Row.count("same revision again: objects whose resourceVersion moved", Target.exactly(0));
  static final Row CHANGED_TIME = Row.millis("1 of " + FUNCTIONS + " changed: time (ls-remote, fetch, read, apply)");
  static final Row CHANGED_WRITES = Row.count("1 of " + FUNCTIONS + " changed: writes", Target.exactly(1));
  static final Row CHANGED_MOVED =
      Row.count("1 of " + FUNCTIONS + " changed: objects whose resourceVersion moved", Target.exactly(1));

  @Override
  public String name() {
    return "sync";
  }

  @Override
  public String description() {
    return "a Git repository of " + FUNCTIONS + " Functions read and synced into a real kube-apiserver";
  }

  @Override
  public List<Row> rows() {
    return List.of(FIRST_TIME, FIRST_GIT, FIRST_READ, FIRST_APPLY, FIRST_WRITES, FIRST_EXIST, SAME_TIME, SAME_WRITES,
        SAME_MOVED, CHANGED_TIME, CHANGED_WRITES, CHANGED_MOVED);
  }

  @Override
  public List<Metric> run() throws Exception {
    Path runs = Files.createDirectories(TestBedBinaries.projectDir().resolve("target/bench/sync-runs"));
    try (RunningGitServers servers = RunningGitServers.start();
        MirrorCache mirrors = new MirrorCache(SourceSettings.defaults(Files.createTempDirectory(runs, "mirrors-")));
        KubeTestBed bed = KubeTestBed.start(Files.createTempDirectory(runs, "run-"));
        KubernetesClient client = bed.newClient()) {
      bed.installCrds();
      client.namespaces()
          .resource(new NamespaceBuilder().withNewMetadata().withName(NAMESPACE).endMetadata().build())
          .create();
      InfraRepository infra = InfraRepository.create(servers, REPOSITORY);
      for (int i = 0; i < FUNCTIONS; i++) {
        infra.write(functionName(i), "v1");
      }
      infra.push(FUNCTIONS + " Functions");
      Mirror mirror = mirrors.mirror(RepositoryUrl.parse(infra.url()), new GitCredentials.Basic(
          servers.http().credentials().username(), servers.http().credentials().password()));
      Reconcile reconcile = new Reconcile(mirror, new ManifestReader(ManifestOptions.defaults()),
          new FunctionSync(client));
      List<Metric> metrics = new ArrayList<>();

      Timed first = reconcile.once();
      metrics.add(FIRST_TIME.value(first.total()));
      metrics.add(FIRST_GIT.value(first.git()));
      metrics.add(FIRST_READ.value(first.read()));
      metrics.add(FIRST_APPLY.value(first.apply()));
      metrics.add(FIRST_WRITES.value(first.result().writes()));
      metrics.add(FIRST_EXIST.value(resourceVersions(client).size()));

      Map<String, String> before = resourceVersions(client);
      Timed same = reconcile.once();
      Map<String, String> afterSame = resourceVersions(client);
      metrics.add(SAME_TIME.value(same.total()));
      metrics.add(SAME_WRITES.value(same.result().writes()));
      metrics.add(SAME_MOVED.value(moved(before, afterSame)));

      infra.write(functionName(FUNCTIONS / 2), "v2").push("change " + functionName(FUNCTIONS / 2));
      Timed oneChanged = reconcile.once();
      metrics.add(CHANGED_TIME.value(oneChanged.total()));
      metrics.add(CHANGED_WRITES.value(oneChanged.result().writes()));
      metrics.add(CHANGED_MOVED.value(moved(afterSame, resourceVersions(client))));
      return metrics;
    }
  }

  /** One sync's result and how long each layer took, in milliseconds. */
  private record Timed(SyncResult result, double git, double read, double apply) {
    double total() {
      return git + read + apply;
    }
  }

  /** What the FunctionRepository reconciler does with the branch's head: its source, manifest and sync steps. */
  private record Reconcile(Mirror mirror, ManifestReader manifests, FunctionSync sync) {
    Timed once() throws Exception {
      long start = System.nanoTime();
      Revision revision = mirror.resolve(new RefSelector.Branch("main"));
      mirror.ensure(List.of(revision));
      long fetched = System.nanoTime();
      Manifest manifest = manifests.read(mirror.snapshot(revision), InfraRepository.FOLDER, List.of());
      long read = System.nanoTime();
      SyncResult result = sync.apply(new SyncRequest(NAMESPACE, REPOSITORY, revision, manifest.functions(), true,
          false, Set.of()));
      long applied = System.nanoTime();
      return new Timed(result, (fetched - start) / 1e6, (read - fetched) / 1e6, (applied - read) / 1e6);
    }
  }

  private static String functionName(int i) {
    return String.format("fn-%04d", i);
  }

  private static Map<String, String> resourceVersions(KubernetesClient client) {
    return client.resources(Function.class).inNamespace(NAMESPACE).list().getItems().stream()
        .collect(Collectors.toMap(f -> f.getMetadata().getName(), f -> f.getMetadata().getResourceVersion()));
  }

  private static int moved(Map<String, String> before, Map<String, String> after) {
    return (int) after.entrySet().stream().filter(e -> !e.getValue().equals(before.get(e.getKey()))).count();
  }
}
