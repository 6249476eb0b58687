package io.gitfn.testbed.realnode;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static java.nio.charset.StandardCharsets.UTF_8;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.networking.v1.IngressClassBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientTimeoutException;
import io.gitfn.testbed.ComponentProcess;
import io.gitfn.testbed.ControlPlane;
import io.gitfn.testbed.FreePorts;
import io.gitfn.testbed.TestBedBinaries;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The node's ingress controller: Traefik as a host process, which serves the cluster's Ingresses of class
 * {@value #INGRESS_CLASS} and the Gateway API's HTTPRoutes attached to Gateways of class {@value #GATEWAY_CLASS},
 * on one plain-HTTP entrypoint at {@link #baseUrl()}. It sends each request to a Pod's IP from the Service's
 * endpoint slices, over the node's bridge, as an ingress controller in a Pod would; not to the ClusterIP.
 *
 * <p>Started by {@link RealNode#ingressController()}, which installs the Gateway API's CRDs and the two classes
 * first, as a platform team would; a Gateway comes from {@link #createGateway}. It reads the API with the admin
 * user's kubeconfig and logs, with an access log line a request, to the node's {@code logs/traefik.log}.
 */
public final class Traefik implements AutoCloseable {

  /** The IngressClass an Ingress names ({@code spec.ingressClassName}) to be served here. */
  public static final String INGRESS_CLASS = "traefik";
  /** The GatewayClass of {@link #createGateway}'s Gateways. */
  public static final String GATEWAY_CLASS = "traefik";
  /** The name of the Gateway that {@link #createGateway} makes in a namespace, for HTTPRoutes' parentRefs. */
  public static final String GATEWAY_NAME = "gitfn-gateway";
  /** The Gateway's one listener, named in a parentRef's {@code sectionName} when a route wants to be exact. */
  public static final String LISTENER = "web";
  // The controller names Traefik's providers answer to.
  private static final String INGRESS_CONTROLLER = "traefik.io/ingress-controller";
  private static final String GATEWAY_CONTROLLER = "traefik.io/gateway-controller";

  private final ComponentProcess process;
  private final String address;
  private final int port;

  private Traefik(ComponentProcess process, String address, int port) {
    this.process = process;
    this.address = address;
    this.port = port;
  }

  /** Starts Traefik against {@code node}'s cluster, after its CRDs and classes, and waits until it serves. */
  static Traefik start(RealNode node, Duration timeout) {
    Path binary = binary();
    try (KubernetesClient client = node.newClient()) {
      GatewayApiCrds.install(client);
      installClasses(client);
    }
    // On the bridge's host address, like the registry: the host reaches it, and so could a Pod.
    String address = node.hostAddress();
    int web = FreePorts.next();
    int ping = FreePorts.next();
    ComponentProcess process = ComponentProcess.start(
        "traefik",
        node.runDirectory().resolve("logs/traefik.log"),
        List.of(
            binary.toString(),
            "--global.checknewversion=false",
            "--global.sendanonymoususage=false",
            "--log.level=INFO",
            "--log.nocolor=true",
            "--accesslog=true",
            "--entrypoints.web.address=" + address + ":" + web,
            // Health on an entrypoint of its own, so that no route of a test can shadow it.
            "--entrypoints.ping.address=127.0.0.1:" + ping,
            "--ping=true",
            "--ping.entrypoint=ping",
            "--providers.kubernetesingress=true",
            "--providers.kubernetesingress.ingressendpoint.ip=" + address,
            "--providers.kubernetesgateway=true",
            "--providers.kubernetesgateway.statusaddress.ip=" + address),
        // Its providers take a kubeconfig only from KUBECONFIG (else in-cluster, or endpoint and token flags).
        Map.of("KUBECONFIG", node.kubeconfig().toString()));
    try {
      ControlPlane.waitFor(process, timeout, () -> ControlPlane.httpOk("http://127.0.0.1:" + ping + "/ping", null));
    } catch (RuntimeException e) {
      process.close();
      throw e;
    }
    return new Traefik(process, address, web);
  }

  /** The IngressClass and the GatewayClass that hand their objects to Traefik. */
  private static void installClasses(KubernetesClient client) {
    client.resource(new IngressClassBuilder()
            .withNewMetadata().withName(INGRESS_CLASS).endMetadata()
            .withNewSpec().withController(INGRESS_CONTROLLER).endSpec()
            .build())
        .fieldManager("gitfn-testbed").forceConflicts().serverSideApply();
    client.resource(resource(client, """
            apiVersion: gateway.networking.k8s.io/v1
            kind: GatewayClass
            metadata:
              name: %s
            spec:
              controllerName: %s
            """.formatted(GATEWAY_CLASS, GATEWAY_CONTROLLER)))
        .fieldManager("gitfn-testbed").forceConflicts().serverSideApply();
  }

  /**
   * Makes Gateway {@value #GATEWAY_NAME} in {@code namespace}, listening on the web entrypoint and taking HTTPRoutes
   * from every namespace, and waits until Traefik has programmed it. Returns its name.
   */
  public String createGateway(KubernetesClient client, String namespace) {
    client.resource(resource(client, """
            apiVersion: gateway.networking.k8s.io/v1
            kind: Gateway
            metadata:
              name: %s
              namespace: %s
            spec:
              gatewayClassName: %s
              listeners:
                - name: %s
                  protocol: HTTP
                  port: %d
                  allowedRoutes:
                    namespaces:
                      from: All
            """.formatted(GATEWAY_NAME, namespace, GATEWAY_CLASS, LISTENER, port)))
        .create();
    var gateway = client.genericKubernetesResources("gateway.networking.k8s.io/v1", "Gateway")
        .inNamespace(namespace).withName(GATEWAY_NAME);
    try {
      gateway.waitUntilCondition(g -> g != null && condition(g, "Programmed"), 60, TimeUnit.SECONDS);
    } catch (KubernetesClientTimeoutException e) {
      throw new IllegalStateException("Traefik did not program Gateway " + namespace + "/" + GATEWAY_NAME
          + " within 60 s; its status: " + gateway.get().get("status") + "\n" + process.tail(30), e);
    }
    return GATEWAY_NAME;
  }

  /** Where the web entrypoint listens: {@code http://<host address>:<port>}. */
  public String baseUrl() {
    return "http://" + address + ":" + port;
  }

  /** One answer through Traefik. */
  public record Answer(int status, String body) {}

  /**
   * GETs {@code path} from Traefik with {@code Host: host}, which picks the route. HTTP/1.0 over a socket of its
   * own, as java.net.http refuses to set a Host header; and an HTTP/1.0 answer ends with its connection.
   */
  public Answer get(String host, String path) {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress(address, port), 5000);
      socket.setSoTimeout(10_000);
      socket.getOutputStream().write(("GET " + path + " HTTP/1.0\r\nHost: " + host + "\r\n\r\n").getBytes(US_ASCII));
      String response = new String(socket.getInputStream().readAllBytes(), UTF_8);
      int statusEnd = response.indexOf("\r\n");
      int headersEnd = response.indexOf("\r\n\r\n");
      if (statusEnd < 0 || headersEnd < 0) {
        throw new IOException("not an HTTP answer: \"" + response + "\"");
      }
      return new Answer(Integer.parseInt(response.substring(0, statusEnd).split(" ")[1]),
          response.substring(headersEnd + 4));
    } catch (IOException e) {
      throw new UncheckedIOException("GET " + path + " with Host " + host + " from Traefik at " + baseUrl(), e);
    }
  }

  /**
   * Waits until {@code get(host, path)} answers {@code status}, as a change to an Ingress or a route takes Traefik
   * a moment; returns that answer, or fails with the last one and the end of Traefik's log.
   */
  public Answer awaitStatus(String host, String path, int status, Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    String last = "no answer yet";
    while (true) {
      try {
        Answer answer = get(host, path);
        if (answer.status() == status) {
          return answer;
        }
        last = answer.toString();
      } catch (UncheckedIOException e) {
        last = e.getMessage() + ": " + e.getCause().getMessage();
      }
      if (System.nanoTime() > deadline || !process.isAlive()) {
        throw new AssertionError("GET " + path + " with Host " + host + " from Traefik did not answer " + status
            + " within " + timeout.toSeconds() + " s (Traefik " + (process.isAlive() ? "running" : "stopped")
            + "); last: " + last + "\nlog:\n" + process.tail(30));
      }
      try {
        Thread.sleep(200); // polling a route that has not reached Traefik yet
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError("interrupted while waiting for " + host + path, e);
      }
    }
  }

  ComponentProcess process() {
    return process;
  }

  /** Stops Traefik. The classes stay, with the cluster: the next start applies them again. */
  @Override
  public void close() {
    process.close();
  }

  private static Path binary() {
    Path binary = NodeBinaries.tool(TestBedBinaries.versions(), "traefik", "TRAEFIK_VERSION");
    if (!Files.isExecutable(binary)) {
      throw new IllegalStateException("Traefik, the real node's ingress controller, is not built: missing " + binary
          + ". Run `bash scripts/build-testbed.sh` (it builds it from its Go module) and try again.");
    }
    return binary;
  }

  private static GenericKubernetesResource resource(KubernetesClient client, String yaml) {
    return client.getKubernetesSerialization().unmarshal(yaml, GenericKubernetesResource.class);
  }

  @SuppressWarnings("unchecked")
  private static boolean condition(GenericKubernetesResource resource, String type) {
    Object conditions = resource.get("status", "conditions");
    return conditions instanceof List<?> list && list.stream()
        .map(c -> (Map<String, Object>) c)
        .anyMatch(c -> type.equals(c.get("type")) && "True".equals(c.get("status")));
  }
}
