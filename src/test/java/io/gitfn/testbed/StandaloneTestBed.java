package io.gitfn.testbed;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Collectors;

/**
 * Runs the test bed outside JUnit until stdin closes or the process is stopped: for poking at it with
 * kubectl, and for the test that kills a test JVM to prove no server outlives it.
 *
 * <p>Prints {@code kubeconfig <path>} and then {@code ready <pid> <pid> ...} with the process ids of every
 * server it started.
 */
public final class StandaloneTestBed {

  public static void main(String[] args) throws Exception {
    boolean cluster = args.length > 0 && args[0].equals("--cluster");
    Path target = Files.createDirectories(TestBedBinaries.projectDir().resolve("target/testbed"));
    try (KubeTestBed bed = KubeTestBed.start(Files.createTempDirectory(target, "standalone-"))) {
      if (cluster) {
        bed.withCluster();
      }
      System.out.println("kubeconfig " + bed.kubeconfig());
      System.out.println(
          "ready "
              + ProcessHandle.current().descendants()
                  .map(p -> Long.toString(p.pid()))
                  .collect(Collectors.joining(" ")));
      System.out.flush();
      while (System.in.read() >= 0) {
        // run until stdin closes
      }
    }
  }

  private StandaloneTestBed() {}
}
