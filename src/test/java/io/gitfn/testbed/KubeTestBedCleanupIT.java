package io.gitfn.testbed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** No test-bed server outlives its JVM, even when the JVM is killed with SIGKILL and runs no shutdown hook. */
class KubeTestBedCleanupIT {

  @Test
  void killingTheTestJvmStopsEveryServerItStarted() throws Exception {
    Process jvm =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"),
                "-Dgitfn.project.dir=" + TestBedBinaries.projectDir(),
                StandaloneTestBed.class.getName(),
                "--cluster")
            .redirectError(ProcessBuilder.Redirect.INHERIT)
            .start();
    List<ProcessHandle> started;
    try (BufferedReader out =
        new BufferedReader(new InputStreamReader(jvm.getInputStream(), StandardCharsets.UTF_8))) {
      started = readyLine(out).stream().flatMap(pid -> ProcessHandle.of(pid).stream()).toList();
      assertThat(started.stream().map(KubeTestBedCleanupIT::program))
          .as("the servers among the test-bed JVM's child processes")
          .contains("etcd", "kube-apiserver", "kube-controller-manager", "kube-scheduler", "kwok");
    } finally {
      jvm.destroyForcibly(); // SIGKILL: no shutdown hook runs
    }
    assertThat(jvm.waitFor(10, TimeUnit.SECONDS)).isTrue();

    await().atMost(Duration.ofSeconds(20)).untilAsserted(() ->
        assertThat(started).as("processes still alive").noneMatch(ProcessHandle::isAlive));
  }

  private static String program(ProcessHandle process) {
    return process.info().command().map(c -> Path.of(c).getFileName().toString()).orElse("?");
  }

  private static List<Long> readyLine(BufferedReader out) throws Exception {
    String line;
    while ((line = out.readLine()) != null) {
      if (line.startsWith("ready ")) {
        return Arrays.stream(line.substring(6).trim().split(" ")).map(Long::parseLong).toList();
      }
    }
    throw new AssertionError("the test-bed JVM ended before it was ready; see its output above");
  }
}
