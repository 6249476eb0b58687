package io.gitfn.testbed.realnode;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What the real node needs of this machine besides its own binaries: root, and Debian's containerd, runc, CNI
 * plugins, iptables, nftables, conntrack, skopeo and a C compiler with a static libc. Missing ones fail the test
 * with the package that brings them ({@code .ci/run} installs them all).
 */
final class HostTools {

  /** Executable or file, and the Debian package it comes from. */
  private static final Map<String, String> NEEDED = Map.ofEntries(
      Map.entry("containerd", "containerd"),
      Map.entry("ctr", "containerd"),
      Map.entry("runc", "runc"),
      Map.entry("/usr/lib/cni/bridge", "containernetworking-plugins"),
      Map.entry("/usr/lib/cni/host-local", "containernetworking-plugins"),
      Map.entry("/usr/lib/cni/loopback", "containernetworking-plugins"),
      Map.entry("ip", "iproute2"),
      Map.entry("iptables", "iptables"),
      Map.entry("ip6tables", "iptables"),
      Map.entry("nft", "nftables"),
      Map.entry("conntrack", "conntrack"),
      Map.entry("skopeo", "skopeo"),
      Map.entry("gcc", "gcc"),
      Map.entry("/usr/lib/x86_64-linux-gnu/libc.a", "libc6-dev"),
      Map.entry("flock", "util-linux"),
      Map.entry("setsid", "util-linux"),
      // RealNodeIT's stand-in for the world outside the machine.
      Map.entry("nsenter", "util-linux"),
      Map.entry("unshare", "util-linux"));

  private HostTools() {}

  /** Fails, never skips, when the JVM is not root or a tool is missing. */
  static void verify() {
    if (!isRoot()) {
      throw new IllegalStateException(
          "The real node needs root (it runs kubelet, containerd and a bridge, and changes iptables and sysctls),"
              + " but this test JVM runs as " + System.getProperty("user.name")
              + ". Run `mvn -B verify` as root, as CI does.");
    }
    List<String> missing = new ArrayList<>();
    NEEDED.forEach((tool, pkg) -> {
      if (!present(tool)) {
        missing.add(tool + " (Debian package " + pkg + ")");
      }
    });
    if (!missing.isEmpty()) {
      throw new IllegalStateException(
          "The real node needs " + String.join(", ", missing.stream().sorted().toList())
              + ", which this machine lacks. `.ci/run` installs them; or apt-get install the packages named.");
    }
  }

  /** The effective user id, from the second number of /proc/self/status's Uid line. */
  private static boolean isRoot() {
    try {
      return Files.readAllLines(Path.of("/proc/self/status")).stream()
          .filter(line -> line.startsWith("Uid:"))
          .anyMatch(line -> line.split("\\s+")[2].equals("0"));
    } catch (java.io.IOException e) {
      return false;
    }
  }

  private static boolean present(String tool) {
    if (tool.startsWith("/")) {
      return Files.exists(Path.of(tool));
    }
    return executable(tool) != null;
  }

  /** {@code name} on the PATH, or in the sbin folders that a non-login root shell may lack; null when nowhere. */
  static Path executable(String name) {
    List<String> dirs = new ArrayList<>(List.of(System.getenv().getOrDefault("PATH", "").split(":")));
    dirs.addAll(List.of("/usr/local/sbin", "/usr/sbin", "/sbin", "/usr/bin", "/bin"));
    for (String dir : dirs) {
      if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, name))) {
        return Path.of(dir, name);
      }
    }
    return null;
  }
}
