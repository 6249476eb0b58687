package io.gitfn.testbed.realnode;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.api.model.networking.v1.IngressBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.gitfn.testbed.TestNamespace;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The real node's ingress controller (Traefik on the host) serves Ingresses and Gateway API HTTPRoutes: a request
 * with a route's host and path reaches the Pods of the route's Service, a route's change moves its traffic, and a
 * path no route claims answers 404.
 */
@WithRealNode
class IngressControllerIT {

  private static final Duration ROUTE_TIMEOUT = Duration.ofSeconds(60);

  @Test
  void anIngressOfTraefiksClassSendsItsHostAndPathToTheServicesPod(
      KubernetesClient client, TestNamespace ns, RealNode node, Traefik traefik) {
    runHello(client, ns, node);
    String host = "ingress." + ns.name() + ".test";

    client.network().v1().ingresses().inNamespace(ns.name()).resource(new IngressBuilder()
            .withNewMetadata().withName("hello").endMetadata()
            .withNewSpec()
            .withIngressClassName(Traefik.INGRESS_CLASS)
            .addNewRule()
            .withHost(host)
            .withNewHttp()
            .addNewPath()
            .withPath("/ingress")
            .withPathType("Prefix")
            .withNewBackend().withNewService().withName("hello").withNewPort().withNumber(80).endPort().endService()
            .endBackend()
            .endPath()
            .endHttp()
            .endRule()
            .endSpec()
            .build())
        .create();

    Traefik.Answer answer = traefik.awaitStatus(host, "/ingress/a-request", 200, ROUTE_TIMEOUT);
    assertThat(answer.body()).startsWith("hello from hello-");
    assertThat(client.pods().inNamespace(ns.name()).withLabels(Map.of("app", "hello")).list().getItems().get(0))
        .satisfies(pod -> assertThat(client.pods().inNamespace(ns.name()).withName(pod.getMetadata().getName()).getLog())
            .as("the Pod's log: Traefik sent the path as it came, from the host, to the Pod's IP")
            .contains("GET /ingress/a-request from " + node.hostAddress()));
    assertThat(traefik.get(host, "/elsewhere").status()).as("a path of the host that no rule claims").isEqualTo(404);
    assertThat(traefik.get("other." + ns.name() + ".test", "/ingress").status()).as("another host").isEqualTo(404);
  }

  @Test
  void anHttpRouteOnTheGatewaySendsItsHostAndPathToTheServicesPodAndMovesWithItsPath(
      KubernetesClient client, TestNamespace ns, RealNode node, Traefik traefik) {
    runHello(client, ns, node);
    String gateway = traefik.createGateway(client, ns.name());
    String host = "route." + ns.name() + ".test";

    apply(client, httpRoute(ns.name(), gateway, host, "/route"));

    assertThat(traefik.awaitStatus(host, "/route", 200, ROUTE_TIMEOUT).body()).startsWith("hello from hello-");
    assertThat(traefik.get(host, "/moved").status()).as("the path the route does not claim yet").isEqualTo(404);

    apply(client, httpRoute(ns.name(), gateway, host, "/moved"));

    assertThat(traefik.awaitStatus(host, "/moved", 200, ROUTE_TIMEOUT).body()).startsWith("hello from hello-");
    assertThat(traefik.get(host, "/route").status()).as("the route's old path, once the new one answers")
        .isEqualTo(404);
  }

  @Test
  void aDeletedHttpRoutesPathAnswers404(KubernetesClient client, TestNamespace ns, RealNode node, Traefik traefik) {
    runHello(client, ns, node);
    String gateway = traefik.createGateway(client, ns.name());
    String host = "deleted." + ns.name() + ".test";
    apply(client, httpRoute(ns.name(), gateway, host, "/route"));
    traefik.awaitStatus(host, "/route", 200, ROUTE_TIMEOUT);

    client.genericKubernetesResources("gateway.networking.k8s.io/v1", "HTTPRoute")
        .inNamespace(ns.name()).withName("hello").delete();

    assertThat(traefik.awaitStatus(host, "/route", 404, ROUTE_TIMEOUT).body()).isEqualTo("404 page not found\n");
  }

  /** An HTTPRoute {@code hello} attached to the Gateway, that sends {@code host} and {@code path} to Service hello. */
  private static String httpRoute(String namespace, String gateway, String host, String path) {
    return """
        apiVersion: gateway.networking.k8s.io/v1
        kind: HTTPRoute
        metadata:
          name: hello
          namespace: %s
        spec:
          parentRefs:
            - name: %s
          hostnames:
            - %s
          rules:
            - matches:
                - path:
                    type: PathPrefix
                    value: %s
              backendRefs:
                - name: hello
                  port: 80
        """.formatted(namespace, gateway, host, path);
  }

  private static void apply(KubernetesClient client, String yaml) {
    client.resource(client.getKubernetesSerialization().unmarshal(yaml, GenericKubernetesResource.class))
        .fieldManager("ingress-controller-it").forceConflicts().serverSideApply();
  }

  /** Deployment and Service {@code hello}: one Pod of hello.c answering "hello from POD" on 8080, Service port 80. */
  private static void runHello(KubernetesClient client, TestNamespace ns, RealNode node) {
    Map<String, String> labels = Map.of("app", "hello");
    client.apps().deployments().inNamespace(ns.name()).resource(new DeploymentBuilder()
            .withNewMetadata().withName("hello").endMetadata()
            .withNewSpec()
            .withReplicas(1)
            .withNewSelector().withMatchLabels(labels).endSelector()
            .withNewTemplate()
            .withNewMetadata().withLabels(labels).endMetadata()
            .withNewSpec()
            .withTerminationGracePeriodSeconds(1L)
            .addNewContainer()
            .withName("hello")
            .withImage(HelloImage.on(node))
            .withArgs("serve", "8080")
            .withNewReadinessProbe()
            .withNewHttpGet().withPath("/ready").withPort(new IntOrString(8080)).endHttpGet()
            .withPeriodSeconds(1)
            .endReadinessProbe()
            .endContainer()
            .endSpec()
            .endTemplate()
            .endSpec()
            .build())
        .create();
    client.services().inNamespace(ns.name()).resource(new ServiceBuilder()
            .withNewMetadata().withName("hello").endMetadata()
            .withNewSpec()
            .withSelector(labels)
            .addNewPort().withPort(80).withTargetPort(new IntOrString(8080)).endPort()
            .endSpec()
            .build())
        .create();
    client.apps().deployments().inNamespace(ns.name()).withName("hello").waitUntilCondition(
        d -> d != null && d.getStatus() != null && Integer.valueOf(1).equals(d.getStatus().getReadyReplicas()),
        2, TimeUnit.MINUTES);
  }
}
