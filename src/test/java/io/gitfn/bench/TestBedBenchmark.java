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

  @Override
  public String name() {
    return "testbed";
  }

  @Override
  public String description() {
    return "test-bed start times, median of " + RUNS + " runs";
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
    metrics.add(Metric.millis("apiserver.start (etcd + kube-apiserver ready)", median(apiserver), 15_000.0));
    metrics.add(Metric.millis("cluster.start (controller-manager, scheduler, kwok node Ready)", median(cluster), 20_000.0));
    metrics.add(Metric.millis("git.servers.start (HTTP + SSH)", median(gitServers), 3_000.0));
    metrics.add(Metric.millis("git.servers.start, first in a cold JVM", gitServers[0], 3_000.0));
    metrics.add(Metric.millis("git.http.push (git CLI)", median(httpPush), null));
    metrics.add(Metric.millis("git.http.ls-remote (JGit)", median(httpLsRemote), null));
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
