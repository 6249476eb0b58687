package io.gitfn.testbed.realnode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.gitfn.testbed.TestNamespace;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The real node runs real Pods: images built here, pushed to its registry and pulled by containerd over
 * HTTP; Pods answer on their IPs and through Services, find Services by name, their logs come through the API,
 * and their traffic stays on this machine.
 */
@WithRealNode
class RealNodeIT {

  private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  @Test
  void theNodeIsReadyAndTheClustersOnlyNode(KubernetesClient client, RealNode node) {
    List<Node> nodes = client.nodes().list().getItems();

    assertThat(nodes).extracting(n -> n.getMetadata().getName()).containsExactly(node.nodeName());
    assertThat(Kubelet.ready(nodes.get(0))).as("Ready").isTrue();
    assertThat(nodes.get(0).getStatus().getAddresses())
        .anyMatch(a -> a.getType().equals("InternalIP") && a.getAddress().equals(node.hostAddress()));
  }

  @Test
  void aPodPulledFromTheRegistryAnswersOnItsIpAndThroughItsService(
      KubernetesClient client, TestNamespace ns, RealNode node) {
    Pod pod = startHello(client, ns, node, "hello");

    assertThat(pod.getStatus().getContainerStatuses().get(0).getImageID())
        .as("the image containerd pulled, by its digest in the registry")
        .startsWith(node.registry() + "/tests/hello@sha256:");
    assertThat(get("http://" + pod.getStatus().getPodIP() + ":8080/direct")).isEqualTo("hello from hello\n");

    Service service = client.services().inNamespace(ns.name()).resource(new ServiceBuilder()
            .withNewMetadata().withName("hello").endMetadata()
            .withNewSpec()
            .withSelector(Map.of("app", "hello"))
            .addNewPort().withPort(80).withTargetPort(new IntOrString(8080)).endPort()
            .endSpec()
            .build())
        .create();
    String clusterIp = service.getSpec().getClusterIP();
    assertThat(clusterIp).startsWith("10.199.1.");
    // kube-proxy writes the Service's rules once it sees the Service and its endpoints.
    await().atMost(Duration.ofSeconds(60)).ignoreExceptions().untilAsserted(() ->
        assertThat(get("http://" + clusterIp + "/through-the-service")).isEqualTo("hello from hello\n"));
  }

  @Test
  void podLogsComeThroughTheApi(KubernetesClient client, TestNamespace ns, RealNode node) {
    Pod pod = startHello(client, ns, node, "logged");

    get("http://" + pod.getStatus().getPodIP() + ":8080/a-logged-request");

    await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
        assertThat(client.pods().inNamespace(ns.name()).withName("logged").getLog())
            .contains("listening on 8080")
            .contains("GET /a-logged-request from " + node.hostAddress()));
  }

  @Test
  void podsReachTheHostTheApiServerAndEachOtherButNothingElse(
      KubernetesClient client, TestNamespace ns, RealNode node) throws Exception {
    Pod target = startHello(client, ns, node, "target");
    String targetIp = target.getStatus().getPodIP();
    int kubeletPort = client.nodes().withName(node.nodeName()).get()
        .getStatus().getDaemonEndpoints().getKubeletEndpoint().getPort();

    try (ServerSocket hostServer = new ServerSocket(0, 50, InetAddress.getByName(node.hostAddress()));
        OutsideNetwork outside = OutsideNetwork.create()) {
      String host = node.hostAddress();
      long droppedBefore = forwardDrops();

      String log = probe(client, ns, node, "probe",
          host, Integer.toString(hostServer.getLocalPort()),
          targetIp, "8080",
          "10.199.1.1", "443",
          OutsideNetwork.ADDRESS, "80",
          host, Integer.toString(kubeletPort));

      assertThat(log.lines()).containsExactly(
          host + ":" + hostServer.getLocalPort() + " connected",
          targetIp + ":8080 connected",
          "10.199.1.1:443 connected",
          OutsideNetwork.ADDRESS + ":80 timed out",
          host + ":" + kubeletPort + " timed out");
      assertThat(forwardDrops()).as("packets the node's FORWARD rule dropped").isGreaterThan(droppedBefore);
      assertThat(outside.packetsFromPods()).as("packets from the Pods that reached the outside").isZero();
      // The host itself reaches the address (nothing listens there): the rule, not routing, stopped the Pod.
      assertThatThrownBy(() -> {
        try (Socket socket = new Socket()) {
          socket.connect(new InetSocketAddress(OutsideNetwork.ADDRESS, 80), 3000);
        }
      }).isInstanceOf(ConnectException.class).hasMessageContaining("refused");
    }
  }

  @Test
  void podsFindServicesByNameAndNoOtherName(KubernetesClient client, TestNamespace ns, RealNode node)
      throws IOException {
    startHello(client, ns, node, "named");
    String clusterIp = client.services().inNamespace(ns.name()).resource(new ServiceBuilder()
            .withNewMetadata().withName("named").endMetadata()
            .withNewSpec()
            .withSelector(Map.of("app", "named"))
            .addNewPort().withPort(80).withTargetPort(new IntOrString(8080)).endPort()
            .endSpec()
            .build())
        .create().getSpec().getClusterIP();
    String name = "named." + ns.name() + ".svc.cluster.local";
    // The probe runs once: CoreDNS must know the Service and kube-proxy must route it before it starts.
    await().atMost(Duration.ofSeconds(60)).ignoreExceptions().untilAsserted(() -> {
      assertThat(CoreDns.answers(name)).as("the node's DNS asked from the host").containsExactly(clusterIp);
      assertThat(get("http://" + clusterIp + "/through-the-service")).isEqualTo("hello from named\n");
    });

    List<String> lines = probe(client, ns, node, "resolver",
        name, "80", "example.com", "80", node.hostAddress(), "53").lines().toList();

    assertThat(lines).hasSize(3);
    assertThat(lines.get(0)).isEqualTo(name + ":80 connected");
    assertThat(lines.get(2)).as("DNS over TCP, for answers too long for UDP")
        .isEqualTo(node.hostAddress() + ":53 connected");
    // Every search domain and then the name itself answered NXDOMAIN at once, not after a resolver timeout (5 s).
    Matcher notResolved = Pattern.compile("example\\.com:80 not resolved in (\\d+) ms: .*").matcher(lines.get(1));
    assertThat(notResolved.matches()).as(lines.get(1)).isTrue();
    assertThat(Long.parseLong(notResolved.group(1))).as("milliseconds to fail the lookup").isLessThan(1000);
    // NXDOMAIN, not REFUSED: musl's resolver (Alpine images) takes no refusal for an answer and waits out its timeout.
    assertThat(DnsQuery.ask(node.hostAddress(), "example.com", 1000).rcode()).isEqualTo(DnsQuery.NXDOMAIN);
  }

  /** Runs hello's {@code connect HOST PORT...} in a Pod of its own until it ends, and returns its output. */
  private static String probe(
      KubernetesClient client, TestNamespace ns, RealNode node, String name, String... targets) {
    client.pods().inNamespace(ns.name()).resource(new PodBuilder()
            .withNewMetadata().withName(name).endMetadata()
            .withNewSpec()
            .withRestartPolicy("Never")
            .addNewContainer()
            .withName("probe")
            .withImage(HelloImage.on(node))
            .addToArgs("connect")
            .addToArgs(targets)
            .endContainer()
            .endSpec()
            .build())
        .create();
    client.pods().inNamespace(ns.name()).withName(name).waitUntilCondition(
        p -> p != null && "Succeeded".equals(p.getStatus().getPhase()), 2, TimeUnit.MINUTES);
    return client.pods().inNamespace(ns.name()).withName(name).getLog();
  }

  private static Pod startHello(KubernetesClient client, TestNamespace ns, RealNode node, String name) {
    client.pods().inNamespace(ns.name()).resource(new PodBuilder()
            .withNewMetadata().withName(name).withLabels(Map.of("app", name)).endMetadata()
            .withNewSpec()
            .withTerminationGracePeriodSeconds(1L)
            .addNewContainer()
            .withName("hello")
            .withImage(HelloImage.on(node))
            .withImagePullPolicy("Always")
            .withArgs("serve", "8080")
            .withNewReadinessProbe()
            .withNewHttpGet().withPath("/ready").withPort(new IntOrString(8080)).endHttpGet()
            .withPeriodSeconds(1)
            .endReadinessProbe()
            .endContainer()
            .endSpec()
            .build())
        .create();
    return client.pods().inNamespace(ns.name()).withName(name).waitUntilReady(2, TimeUnit.MINUTES);
  }

  /** The packet count of the node's rule that drops what Pods send off the bridge. */
  private static long forwardDrops() {
    return HostCommand.run("iptables", "-w", "5", "-t", "mangle", "-nvxL", "GITFN-REALNODE-FORWARD").lines()
        .filter(line -> line.contains("Pods reach only the host"))
        .mapToLong(line -> Long.parseLong(line.trim().split("\\s+")[0]))
        .sum();
  }

  private static String get(String url) {
    try {
      HttpResponse<String> response = HTTP.send(
          HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10)).build(),
          HttpResponse.BodyHandlers.ofString());
      assertThat(response.statusCode()).as(url).isEqualTo(200);
      return response.body();
    } catch (IOException e) {
      throw new java.io.UncheckedIOException("GET " + url, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
