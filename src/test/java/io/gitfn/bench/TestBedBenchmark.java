package io.gitfn.bench;

import io.gitfn.testbed.KubeTestBed;
import io.gitfn.testbed.TestBedBinaries;
import io.gitfn.testbed.git.BareRepository;
import io.gitfn.testbed.git.GitClient;
import io.gitfn.testbed.git.RunningGitServers;
import io.gitfn.testbed.git.WorkingCopy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.eclipse.jgit.api.Git;

/**
 * How long the test bed takes to start: the API server alone, the cluster components on top, and the Git
 * servers, with a push and an ls-remote through them. Each figure is the median of {@value #RUNS} starts.
 */
final class TestBedBenchmark implements Benchmark {

  private static final int RUNS = 3;

  static final Row APISERVER = Row.millis("apiserver.start (etcd + kube-apiserver ready)", Target.atMost(15_000));
  static final Row CLUSTER =
      Row.millis("cluster.start (controller-manager, scheduler, kwok node Ready)", Target.atMost(20_000));
  static final Row GIT_SERVERS = Row.millis("git.servers.start (HTTP + SSH)", Target.atMost(3_000));
  static final Row GIT_SERVERS_COLD = Row.millis("git.servers.start, first in a cold JVM", Target.atMost(3_000));
  static final Row PUSH = Row.millis("git.http.push (git CLI)");
  static final Row LS_REMOTE = Row.millis("git.http.ls-remote (JGit)");

  @Override
  public String name() {
    return "testbed";
  }

  @Override
  public String description() {
    return "test-bed start times, median of " + RUNS + " runs";
  }

  @Override
  public List<Row> rows() {
    return List.of(APISERVER, CLUSTER, GIT_SERVERS, GIT_SERVERS_COLD, PUSH, LS_REMOTE);
  }

  @Override
  public List<Metric> run() throws Exception {
    double[] apiserver = new double[RUNS];
    double[] cluster = new double[RUNS];
    double[] gitServers = new double[RUNS];
    double[] httpPush = new double[RUNS];
    double[] httpLsRemote = new double[RUNS];
    Path runs = Files.createDirectories(TestBedBinaries.projectDir().resolve("target/bench/testbed-runs"));
    for (int i = 0; i < RUNS; i++) {
      long gitStart = System.nanoTime();
      try (RunningGitServers servers = RunningGitServers.start()) {
        gitServers[i] = millisSince(gitStart);
        BareRepository repository = servers.repositories().create("bench-" + i);
        GitClient git = servers.newClient("bench-" + i);
        WorkingCopy copy = git.clone(servers.http().url(repository.name()));
        copy.write("handler.js", "module.exports = { main: () => 'hello " + i + "' };\n").commit("add handler");
        long pushStart = System.nanoTime();
        copy.push();
        httpPush[i] = millisSince(pushStart);
        long lsStart = System.nanoTime();
        Git.lsRemoteRepository()
            .setRemote(servers.http().url(repository.name()))
            .setCredentialsProvider(servers.http().credentials().forJGit())
            .call();
        httpLsRemote[i] = millisSince(lsStart);
      }
      long start = System.nanoTime();
      try (KubeTestBed bed = KubeTestBed.start(Files.createTempDirectory(runs, "run-"))) {
        apiserver[i] = millisSince(start);
        long clusterStart = System.nanoTime();
        bed.withCluster();
        cluster[i] = millisSince(clusterStart);
      }
    }
    List<Metric> metrics = new ArrayList<>();
    metrics.add(APISERVER.value(median(apiserver)));
    metrics.add(CLUSTER.value(median(cluster)));
    metrics.add(GIT_SERVERS.value(median(gitServers)));
    metrics.add(GIT_SERVERS_COLD.value(gitServers[0]));
    metrics.add(PUSH.value(median(httpPush)));
    metrics.add(LS_REMOTE.value(median(httpLsRemote)));
    return metrics;
  }

  private static double millisSince(long start) {
    return (System.nanoTime() - start) / 1e6;
  }

  private static double median(double[] values) {
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    return sorted[sorted.length / 2];
  }
}
