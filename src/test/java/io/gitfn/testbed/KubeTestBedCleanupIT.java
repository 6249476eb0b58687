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
    List<Long> servers;
    try (BufferedReader out =
        new BufferedReader(new InputStreamReader(jvm.getInputStream(), StandardCharsets.UTF_8))) {
      servers = readyLine(out);
      assertThat(servers).as("etcd, apiserver, controller-manager, scheduler, kwok and their guards").hasSizeGreaterThanOrEqualTo(10);
      assertThat(servers).allMatch(KubeTestBedCleanupIT::alive);

      jvm.destroyForcibly(); // SIGKILL: no shutdown hook runs
      assertThat(jvm.waitFor(10, TimeUnit.SECONDS)).isTrue();
    }

    await().atMost(Duration.ofSeconds(20)).untilAsserted(() ->
        assertThat(servers).as("processes still alive").noneMatch(KubeTestBedCleanupIT::alive));
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

  private static boolean alive(long pid) {
    return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
  }
}
