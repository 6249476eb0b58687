package io.gitfn.testbed.realnode;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * What a real node changes on this machine, read from the machine itself (not from the node's own records),
 * so that a test can compare it before a node starts and after it is gone.
 *
 * @param mounts mount points of the kinds a node makes: under a test-bed run directory, under /run/netns,
 *     /run/containerd, /var/lib/kubelet or /var/lib/cni, and every nsfs (network namespace) mount. Other mounts
 *     are left out: another build on the shared machine may mount and unmount its own meanwhile.
 * @param links network interfaces by name
 * @param routes IPv4 and IPv6 routes of every table
 * @param rules {@code iptables-save} and {@code ip6tables-save}, and {@code nft list ruleset}, without counters
 * @param cgroups cgroup folders two levels deep in every hierarchy (kubepods/besteffort, k8s.io/...)
 * @param sysctls every sysctl but the ones that change by themselves (counters, random values)
 * @param paths the system folders a node may create, and what is in them
 * @param conntrack connection-tracking entries of the node's ranges
 */
record HostSnapshot(
    Set<String> mounts,
    Set<String> links,
    List<String> routes,
    List<String> rules,
    Set<String> cgroups,
    Map<String, String> sysctls,
    Set<String> paths,
    List<String> conntrack) {

  private static final Pattern VOLATILE_SYSCTL = Pattern.compile(
      "fs\\.(dentry-state|file-nr|inode-nr|inode-state|aio-nr|quota\\..*)|kernel\\.(ns_last_pid|random\\..*|pty\\.nr)"
          + "|net\\.netfilter\\.nf_conntrack_count");
  private static final List<String> NODE_MOUNT_PLACES =
      List.of("/run/netns", "/run/containerd", "/var/lib/kubelet", "/var/lib/cni");
  /** host-state.sh's NODE_PATHS. */
  private static final List<String> NODE_PATHS = List.of(
      "/run/containerd", "/var/lib/cni", "/var/log/containers", "/var/log/pods", "/run/netns", "/opt/containerd",
      "/etc/cni", "/var/lib/kubelet", "/usr/libexec/kubernetes", "/etc/kubernetes");

  static HostSnapshot take() {
    return new HostSnapshot(
        readMounts(), readLinks(), readRoutes(), readRules(), readCgroups(), readSysctls(), readPaths(),
        readConntrack());
  }

  /** What differs from {@code before}, one line a difference, saying which part and which way. */
  List<String> differencesFrom(HostSnapshot before) {
    List<String> differences = new ArrayList<>();
    compare("mount", before.mounts, mounts, differences);
    compare("link", before.links, links, differences);
    compare("route", new TreeSet<>(before.routes), new TreeSet<>(routes), differences);
    compare("rule", new TreeSet<>(before.rules), new TreeSet<>(rules), differences);
    compare("cgroup", before.cgroups, cgroups, differences);
    compare("path", before.paths, paths, differences);
    compare("conntrack", new TreeSet<>(before.conntrack), new TreeSet<>(conntrack), differences);
    before.sysctls.forEach((name, value) -> {
      String now = sysctls.get(name);
      if (now != null && !now.equals(value)) {
        differences.add("sysctl " + name + " was " + value + ", is " + now);
      }
    });
    return differences;
  }

  private static void compare(String part, Set<String> before, Set<String> after, List<String> differences) {
    after.stream().filter(x -> !before.contains(x)).forEach(x -> differences.add(part + " added: " + x));
    before.stream().filter(x -> !after.contains(x)).forEach(x -> differences.add(part + " gone: " + x));
  }

  private static Set<String> readMounts() {
    Set<String> mounts = new TreeSet<>();
    for (String line : read(Path.of("/proc/self/mountinfo"))) {
      String[] fields = line.split(" ");
      String point = fields[4].replace("\\040", " ");
      int separator = List.of(fields).indexOf("-");
      String type = separator > 0 ? fields[separator + 1] : "?";
      if (point.contains("/target/testbed/realnode-") || type.equals("nsfs")
          || NODE_MOUNT_PLACES.stream().anyMatch(place -> point.equals(place) || point.startsWith(place + "/"))) {
        mounts.add(point + " (" + type + ")");
      }
    }
    return mounts;
  }

  private static Set<String> readLinks() {
    Set<String> links = new TreeSet<>();
    for (String line : HostCommand.run("ip", "-o", "link", "show").lines().toList()) {
      links.add(line.split(": ")[1].replaceFirst("@.*", ""));
    }
    return links;
  }

  private static List<String> readRoutes() {
    List<String> routes = new ArrayList<>(HostCommand.run("ip", "-4", "route", "show", "table", "all").lines().toList());
    routes.addAll(HostCommand.run("ip", "-6", "route", "show", "table", "all").lines().toList());
    return routes;
  }

  private static List<String> readRules() {
    List<String> rules = new ArrayList<>();
    for (String save : List.of("iptables-save", "ip6tables-save")) {
      HostCommand.run(save).lines()
          .filter(line -> !line.startsWith("#"))
          .map(line -> save + ": " + line.replaceAll("\\[\\d+:\\d+\\]", ""))
          .forEach(rules::add);
    }
    HostCommand.run("nft", "list", "ruleset").lines()
        .map(line -> "nft: " + line.replaceAll("packets \\d+ bytes \\d+", "").strip())
        .forEach(rules::add);
    return rules;
  }

  private static Set<String> readCgroups() {
    Set<String> cgroups = new TreeSet<>();
    for (String line : read(Path.of("/proc/self/mounts"))) {
      String[] fields = line.split(" ");
      if (!fields[2].equals("cgroup") && !fields[2].equals("cgroup2")) {
        continue;
      }
      Path hierarchy = Path.of(fields[1]);
      try (Stream<Path> dirs = Files.walk(hierarchy, 2)) {
        dirs.filter(Files::isDirectory).filter(d -> !d.equals(hierarchy)).forEach(d -> cgroups.add(d.toString()));
      } catch (IOException | UncheckedIOException e) {
        cgroups.add(hierarchy + " unreadable: " + e.getMessage());
      }
    }
    return cgroups;
  }

  private static Map<String, String> readSysctls() {
    Map<String, String> sysctls = new TreeMap<>();
    for (String line : HostCommand.run("sysctl", "-a").lines().toList()) {
      int equals = line.indexOf(" = ");
      if (equals > 0 && !VOLATILE_SYSCTL.matcher(line.substring(0, equals)).matches()) {
        sysctls.put(line.substring(0, equals), line.substring(equals + 3));
      }
    }
    return sysctls;
  }

  private static Set<String> readPaths() {
    Set<String> paths = new TreeSet<>();
    for (String place : NODE_PATHS) {
      Path path = Path.of(place);
      if (!Files.exists(path)) {
        continue;
      }
      try (Stream<Path> all = Files.walk(path)) {
        all.forEach(p -> paths.add(p.toString()));
      } catch (IOException | UncheckedIOException e) {
        paths.add(place + " unreadable: " + e.getMessage());
      }
    }
    return paths;
  }

  private static List<String> readConntrack() {
    List<String> entries = new ArrayList<>();
    for (String range : List.of(NodeNetwork.POD_SUBNET, NodeNetwork.SERVICE_RANGE)) {
      for (String direction : List.of("--orig-src", "--orig-dst")) {
        HostCommand.run("bash", "-c", "conntrack -L " + direction + " " + range + " 2>/dev/null || true")
            // Without the protocol number and the seconds left, which change by themselves.
            .lines().map(line -> line.replaceFirst("^(\\S+)\\s+\\d+\\s+\\d+", "$1")).forEach(entries::add);
      }
    }
    return entries;
  }

  private static List<String> read(Path file) {
    try {
      return Files.readAllLines(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
