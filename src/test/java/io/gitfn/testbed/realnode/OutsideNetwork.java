package io.gitfn.testbed.realnode;

import java.io.IOException;
import java.util.concurrent.TimeUnit;

/**
 * A stand-in for "anywhere but this machine" that is on this machine: a network namespace of the test's own,
 * reached from the host through a veth pair ({@code gitfn-out0}, 198.18.213.1/30 on the host, 198.18.213.2
 * inside; 198.18.0.0/15 is the range set aside for network tests). To the host it is another interface, like
 * eth0, so the node's rules must drop Pod traffic to it; should they fail, the packets still stay here, where
 * a counting rule inside the namespace sees them.
 *
 * <p>The namespace belongs to a {@code bash} that reads a pipe from this JVM: closing it, or the JVM ending,
 * ends the namespace, which takes the veth pair with it.
 */
final class OutsideNetwork implements AutoCloseable {

  static final String HOST_SIDE = "gitfn-out0";
  static final String ADDRESS = "198.18.213.2";
  private static final String HOST_ADDRESS = "198.18.213.1";

  private final Process holder;

  private OutsideNetwork(Process holder) {
    this.holder = holder;
  }

  static OutsideNetwork create() throws IOException {
    Process holder = new ProcessBuilder("unshare", "--net", "--", "bash", "-c", "read -r _")
        .redirectErrorStream(true)
        .start();
    OutsideNetwork outside = new OutsideNetwork(holder);
    try {
      String pid = Long.toString(holder.pid());
      HostCommand.run("ip", "link", "add", HOST_SIDE, "type", "veth", "peer", "name", "eth0", "netns", pid);
      HostCommand.run("ip", "addr", "add", HOST_ADDRESS + "/30", "dev", HOST_SIDE);
      HostCommand.run("ip", "link", "set", HOST_SIDE, "up");
      inside(pid, "ip", "addr", "add", ADDRESS + "/30", "dev", "eth0");
      inside(pid, "ip", "link", "set", "eth0", "up");
      inside(pid, "ip", "link", "set", "lo", "up");
      // Counts, and lets pass, whatever arrives from the Pods' subnet.
      inside(pid, "iptables", "-w", "5", "-A", "INPUT", "-s", NodeNetwork.POD_SUBNET);
      return outside;
    } catch (RuntimeException e) {
      outside.close();
      throw e;
    }
  }

  /** Packets from the Pods' subnet that reached the namespace. */
  long packetsFromPods() {
    String rules = inside(Long.toString(holder.pid()), "iptables", "-w", "5", "-nvxL", "INPUT");
    return rules.lines()
        .filter(line -> line.contains(NodeNetwork.POD_SUBNET))
        .mapToLong(line -> Long.parseLong(line.trim().split("\\s+")[0]))
        .sum();
  }

  private static String inside(String pid, String... command) {
    String[] full = new String[command.length + 4];
    full[0] = "nsenter";
    full[1] = "-t";
    full[2] = pid;
    full[3] = "-n";
    System.arraycopy(command, 0, full, 4, command.length);
    return HostCommand.run(full);
  }

  @Override
  public void close() {
    try {
      holder.getOutputStream().close();
      if (!holder.waitFor(10, TimeUnit.SECONDS)) {
        holder.destroyForcibly();
      }
    } catch (IOException ignored) {
      holder.destroyForcibly();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      holder.destroyForcibly();
    }
  }
}
