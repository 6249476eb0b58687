package io.gitfn.testbed.realnode;

import java.util.stream.Collectors;

/**
 * Runs a real node outside JUnit until stdin closes or the process is stopped: for poking at it with kubectl,
 * and for the test that kills a node's JVM with -9 to prove the machine ends up as it was.
 *
 * <p>Prints {@code kubeconfig <path>}, {@code run <dir>}, {@code registry <host:port>} and then
 * {@code ready <pid> <pid> ...} with the process ids of the node's guard and every server it started.
 */
public final class StandaloneRealNode {

  public static void main(String[] args) throws Exception {
    try (RealNode node = RealNode.start(RealNode.newRunDirectory())) {
      System.out.println("kubeconfig " + node.kubeconfig());
      System.out.println("run " + node.runDirectory());
      System.out.println("registry " + node.registry());
      System.out.println(
          "ready " + node.processIds().stream().map(String::valueOf).collect(Collectors.joining(" ")));
      System.out.flush();
      while (System.in.read() >= 0) {
        // run until stdin closes
      }
    }
  }

  private StandaloneRealNode() {}
}
