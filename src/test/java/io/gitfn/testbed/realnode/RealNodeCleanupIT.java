package io.gitfn.testbed.realnode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.gitfn.testbed.TestBedBinaries;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A real node whose JVM is killed with SIGKILL (no shutdown hook, no close()) leaves this machine as it found it:
 * its guard tears down the processes, Pods, mounts, network namespaces, bridge, iptables and nftables rules,
 * cgroups and sysctls. The machine is read before the node starts, while it runs with a Pod and a Service, and
 * after; before and after must not differ. A node killed together with its guard is torn down by the next one.
 */
class RealNodeCleanupIT {

  @Test
  void killingTheNodesJvmLeavesTheMachineAsItWas() throws Exception {
    HostTools.verify(); // root and the node's packages, or a failure that names what is missing
    // One real node per machine: one that this JVM started for other tests would hold the lock.
    RealNode.stopShared();
    HostSnapshot before = HostSnapshot.take();

    Path errors = errorsFile();
    Process jvm = startStandaloneNode(errors);
    Map<String, String> printed;
    List<ProcessHandle> started;
    HostSnapshot running;
    try (BufferedReader out = new BufferedReader(new InputStreamReader(jvm.getInputStream(), StandardCharsets.UTF_8))) {
      printed = untilReady(out, errors);
      started = Arrays.stream(printed.get("ready").split(" "))
          .map(Long::parseLong)
          .flatMap(pid -> ProcessHandle.of(pid).stream())
          .toList();
      assertThat(started.stream().map(RealNodeCleanupIT::program))
          .as("the node's servers among the JVM's child processes")
          .contains("etcd", "kube-apiserver", "kube-controller-manager", "kube-scheduler", "containerd",
              "kubelet", "kube-proxy", "registry", "coredns");
      giveTheNodeSomethingToCleanUp(Path.of(printed.get("kubeconfig")));

      running = HostSnapshot.take();
      assertThat(running.links()).as("links while the node runs").contains(NodeNetwork.BRIDGE);
      assertThat(running.cgroups()).as("cgroups while the node runs").contains("/sys/fs/cgroup/memory/kubepods");
      assertThat(running.mounts()).as("mounts while the node runs")
          .anyMatch(m -> m.startsWith(printed.get("run") + "/kubelet/root"))
          .anyMatch(m -> m.endsWith("(nsfs)"));
      assertThat(running.rules()).as("packet filter rules while the node runs")
          .anyMatch(r -> r.contains("KUBE-SERVICES"))
          .anyMatch(r -> r.contains("GITFN-REALNODE-FORWARD"));
      // kubelet's kernel tunables and the bridge's forwarding, whatever the machine had before.
      assertThat(running.sysctls()).as("sysctls while the node runs").containsEntry("vm.overcommit_memory", "1")
          .containsEntry("kernel.panic", "10").containsEntry("kernel.panic_on_oops", "1")
          .containsEntry("net.ipv4.ip_forward", "1");
    } finally {
      jvm.destroyForcibly(); // SIGKILL: no shutdown hook, no close(); only the guards are left to act
    }
    assertThat(jvm.waitFor(10, TimeUnit.SECONDS)).isTrue();

    String runDir = printed.get("run");
    untilGone(started, runDir);
    HostSnapshot after = HostSnapshot.take();

    assertThat(after.differencesFrom(before))
        .as("differences from the machine before the node started; the guard's log: "
            + Path.of(runDir, "logs/node-guard.log"))
        .isEmpty();
    assertThat(running.differencesFrom(before)).as("the node changed what the comparison covers").isNotEmpty();
  }

  /**
   * When every process of a node dies at once, its guard too (a cancelled CI job, a stopped sandbox), nothing runs
   * its teardown: the bridge, the cgroups, the KUBE-* chains and the sysctls stay. The next node's guard finds
   * them, sees from the lock that their node is gone, runs that node's own teardown.sh, and starts; once it is
   * closed too, the machine is as it was before the first.
   */
  @Test
  void aNodeKilledWithItsGuardIsTornDownByTheNextNode() throws Exception {
    HostTools.verify();
    RealNode.stopShared();
    HostSnapshot before = HostSnapshot.take();

    Path errors = errorsFile();
    Process jvm = startStandaloneNode(errors);
    String firstRun;
    try (BufferedReader out = new BufferedReader(new InputStreamReader(jvm.getInputStream(), StandardCharsets.UTF_8))) {
      Map<String, String> printed = untilReady(out, errors);
      firstRun = printed.get("run");
      giveTheNodeSomethingToCleanUp(Path.of(printed.get("kubeconfig")));
      // The guard first, so that the JVM's end cannot reach a teardown; then everything else of the node.
      Path guardScript = Path.of(firstRun, "bin", "node-guard.sh");
      ProcessHandle.allProcesses().filter(p -> commandLine(p).contains(guardScript.toString()))
          .forEach(ProcessHandle::destroyForcibly);
    } finally {
      jvm.destroyForcibly();
    }
    assertThat(jvm.waitFor(10, TimeUnit.SECONDS)).isTrue();
    ProcessHandle.allProcesses().filter(p -> commandLine(p).contains(firstRun)).forEach(ProcessHandle::destroyForcibly);
    HostSnapshot leftovers = HostSnapshot.take();
    assertThat(leftovers.links()).as("the dead node's bridge, which nothing tore down").contains(NodeNetwork.BRIDGE);

    Path secondErrors = errorsFile();
    Process second = startStandaloneNode(secondErrors);
    List<ProcessHandle> started;
    String secondRun;
    try (BufferedReader out = new BufferedReader(new InputStreamReader(second.getInputStream(), StandardCharsets.UTF_8))) {
      Map<String, String> printed = untilReady(out, secondErrors);
      secondRun = printed.get("run");
      started = Arrays.stream(printed.get("ready").split(" "))
          .map(Long::parseLong)
          .flatMap(pid -> ProcessHandle.of(pid).stream())
          .toList();
      assertThat(Files.readString(Path.of(secondRun, "logs/node-guard.log")))
          .as("the second node's guard log")
          .contains("the machine has the leftovers of the last real node, " + firstRun);
    } finally {
      second.destroyForcibly();
    }
    assertThat(second.waitFor(10, TimeUnit.SECONDS)).isTrue();
    untilGone(started, secondRun);

    assertThat(HostSnapshot.take().differencesFrom(before))
        .as("differences from the machine before the first node started; the guards' logs: "
            + Path.of(firstRun, "logs/node-guard.log") + ", " + Path.of(secondRun, "logs/node-guard.log"))
        .isEmpty();
  }

  /** The child's errors go to a file that a failure quotes: inherited, they would end up in failsafe's own files. */
  private static Path errorsFile() throws java.io.IOException {
    return Files.createTempFile(TestBedBinaries.projectDir().resolve("target"), "realnode-standalone-", ".err");
  }

  private static Process startStandaloneNode(Path errors) throws java.io.IOException {
    return new ProcessBuilder(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-cp", System.getProperty("java.class.path"),
            "-Dgitfn.project.dir=" + TestBedBinaries.projectDir(),
            StandaloneRealNode.class.getName())
        .redirectError(errors.toFile())
        .start();
  }

  /** The node's guard is among the processes, and ends only once teardown.sh has finished. */
  private static void untilGone(List<ProcessHandle> started, String runDir) {
    await().atMost(Duration.ofMinutes(3)).untilAsserted(() -> {
      assertThat(started).as("processes still alive").noneMatch(ProcessHandle::isAlive);
      assertThat(ProcessHandle.allProcesses().filter(p -> commandLine(p).contains(runDir)))
          .as("processes whose command line names the run directory " + runDir)
          .isEmpty();
    });
  }

  /** A Pod (a sandbox, a container, a network namespace, a volume mount) and a Service (kube-proxy's rules). */
  private static void giveTheNodeSomethingToCleanUp(Path kubeconfig) throws Exception {
    try (KubernetesClient client = new KubernetesClientBuilder()
        .withConfig(Config.fromKubeconfig(Files.readString(kubeconfig)))
        .build()) {
      client.serviceAccounts().inNamespace("default").withName("default")
          .waitUntilCondition(java.util.Objects::nonNull, 60, TimeUnit.SECONDS);
      client.pods().inNamespace("default").resource(new PodBuilder()
              .withNewMetadata().withName("left-running").withLabels(Map.of("app", "left-running")).endMetadata()
              .withNewSpec()
              .addNewContainer()
              .withName("pause")
              .withImage(Containerd.PAUSE_IMAGE)
              .withImagePullPolicy("Never")
              .endContainer()
              .endSpec()
              .build())
          .create();
      client.services().inNamespace("default").resource(new ServiceBuilder()
              .withNewMetadata().withName("left-running").endMetadata()
              .withNewSpec()
              .withSelector(Map.of("app", "left-running"))
              .addNewPort().withPort(80).withTargetPort(new IntOrString(8080)).endPort()
              .endSpec()
              .build())
          .create();
      client.pods().inNamespace("default").withName("left-running").waitUntilReady(2, TimeUnit.MINUTES);
    }
  }

  private static Map<String, String> untilReady(BufferedReader out, Path errors) throws Exception {
    Map<String, String> printed = new HashMap<>();
    List<String> lines = new ArrayList<>();
    String line;
    while ((line = out.readLine()) != null) {
      lines.add(line);
      int space = line.indexOf(' ');
      if (space > 0) {
        printed.put(line.substring(0, space), line.substring(space + 1).trim());
      }
      if (line.startsWith("ready ")) {
        return printed;
      }
    }
    throw new AssertionError("the real node's JVM ended before it was ready; its output:\n" + String.join("\n", lines)
        + "\nits errors (" + errors + "):\n" + tail(Files.readString(errors), 8_000));
  }

  private static String tail(String text, int chars) {
    return text.length() <= chars ? text : "…" + text.substring(text.length() - chars);
  }

  private static String program(ProcessHandle process) {
    return process.info().command().map(c -> Path.of(c).getFileName().toString()).orElse("?");
  }

  private static String commandLine(ProcessHandle process) {
    try {
      return Files.readString(Path.of("/proc", Long.toString(process.pid()), "cmdline")).replace('\0', ' ');
    } catch (java.io.IOException e) {
      return "";
    }
  }
}
