package io.gitfn.manifest;

import static io.gitfn.manifest.ManifestReaderTest.errors;
import static io.gitfn.manifest.ManifestReaderTest.function;
import static io.gitfn.manifest.ManifestReaderTest.names;
import static io.gitfn.manifest.ManifestReaderTest.read;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Routes and other allowed kinds in a revision: kept as the file has them, their metadata checked at its lines; their
 * content is the API server's to check. A kind the controller does not allow stays a notice.
 */
class RouteReaderTest {

  static final String ROUTE = """
      apiVersion: gateway.networking.k8s.io/v1
      kind: HTTPRoute
      metadata:
        name: orders
        labels: {app: orders}
      spec:
        parentRefs: [{name: gitfn-gateway, namespace: gateways}]
        hostnames: [orders.example.com]
        rules:
          - matches: [{path: {type: PathPrefix, value: /orders}}]
            backendRefs: [{name: orders, port: 80}]
      status:
        parents: []
      """;

  static final String INGRESS = """
      apiVersion: networking.k8s.io/v1
      kind: Ingress
      metadata:
        name: orders
      spec:
        rules:
          - host: orders.example.com
            http:
              paths:
                - {path: /, pathType: Prefix, backend: {service: {name: orders, port: {number: 80}}}}
      """;

  @Test
  void anHttpRouteAndAnIngressAreKeptWithTheirFileAndLineAndWithoutStatus() throws Exception {
    Manifest manifest = read(FakeTree.of("functions/orders.yaml", function("orders") + "---\n" + ROUTE + "---\n"
        + INGRESS));

    assertThat(names(manifest)).containsExactly("orders");
    assertThat(manifest.notices()).isEmpty();
    assertThat(manifest.objects()).extracting(DeclaredObject::toString).containsExactly(
        "DeclaredObject[functions/orders.yaml:11, HTTPRoute orders]",
        "DeclaredObject[functions/orders.yaml:25, Ingress orders]");
    GenericKubernetesResource route = manifest.objects().get(0).object();
    assertThat(route.getAdditionalProperties()).containsOnlyKeys("spec");
    assertThat(route.getMetadata().getLabels()).isEqualTo(Map.of("app", "orders"));
    assertThat(route.get("spec", "hostnames", 0).toString()).isEqualTo("orders.example.com");
  }

  @Test
  void aRouteThatNamesAnotherNamespaceIsRefusedForTheRepositoryAtItsLine() throws Exception {
    Manifest manifest = read(FakeTree.of("functions/route.yaml", ROUTE.replace("  name: orders\n",
        "  name: orders\n  namespace: shop\n")));
    DeclaredObject route = manifest.objects().get(0);

    assertThat(route.refusedIn("shop")).isEmpty();
    assertThat(route.in("shop").getMetadata().getNamespace()).isEqualTo("shop");
    assertThat(route.refusedIn("team-a")).map(ManifestError::toString).hasValue("functions/route.yaml:1:"
        + " metadata.namespace: is `shop`, not `team-a`, the namespace of the FunctionRepository; a repository's"
        + " HTTPRoutes go to its own namespace: remove metadata.namespace or set it to team-a");
    assertThatThrownBy(() -> route.in("team-a")).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void aRouteCarriesNoKeyOfTheControllersNorFieldsTheClusterSets() {
    assertThat(errors(FakeTree.of("functions/route.yaml", """
        apiVersion: networking.k8s.io/v1
        kind: Ingress
        metadata:
          name: Orders
          uid: 0a1b
          labels: {gitfn.io/repository: other.repo}
        spec: {}
        """))).containsExactly(
        "functions/route.yaml:4: metadata.name: `Orders` is not a DNS-1123 subdomain: at most 253 lower-case letters,"
            + " digits, '-' and '.', starting and ending with a letter or digit",
        "functions/route.yaml:5: metadata.uid: is not a field gitfn applies on an Ingress's metadata; it takes name,"
            + " namespace, labels, annotations (an Ingress exported from a cluster keeps fields the cluster sets:"
            + " remove them)",
        "functions/route.yaml:6: metadata.labels[gitfn.io/repository]: keys starting with gitfn.io/ are the"
            + " controller's to set (it tells by them which repository an Ingress belongs to and what to prune); use"
            + " another prefix");
  }

  @Test
  void twoRoutesOfOneKindAndNameAreRefusedButOneOfEachKindIsNot() {
    assertThat(errors(FakeTree.of("functions/a.yaml", ROUTE, "functions/b.yaml", ROUTE + "---\n" + INGRESS)))
        .containsExactly("functions/b.yaml:1: metadata.name: HTTPRoute `orders` is also declared in"
            + " functions/a.yaml:1; names must be unique within a kind");
  }

  @Test
  void aKindTheControllerDoesNotAllowIsANoticeAndNotApplied() throws Exception {
    ManifestOptions routesOnly = ManifestOptions.defaults()
        .withAllowedKinds(AllowedKinds.parse(List.of("gateway.networking.k8s.io/v1/HTTPRoute")));
    Manifest manifest = new ManifestReader(routesOnly).read(FakeTree.of("functions/app.yaml", ROUTE + "---\n"
        + INGRESS + "---\n" + ConfigMapReaderTest.configMap("settings")), "functions", List.of());

    assertThat(manifest.objects()).extracting(DeclaredObject::name).containsExactly("orders");
    assertThat(manifest.configMaps()).isEmpty();
    assertThat(manifest.notices()).extracting(ManifestNotice::toString).containsExactly(
        "functions/app.yaml:16: an Ingress (networking.k8s.io/v1), which the controller does not apply: it takes"
            + " Functions and gateway.networking.k8s.io/v1/HTTPRoute; ignored",
        "functions/app.yaml:27: a ConfigMap (v1), which the controller does not apply: it takes Functions and"
            + " gateway.networking.k8s.io/v1/HTTPRoute; ignored");
  }

  @Test
  void aRevisionDeclaresAtMostItsNumberOfObjects() {
    FakeTree tree = new FakeTree();
    for (int i = 0; i < 3; i++) {
      tree.file("functions/r" + i + ".yaml", ROUTE.replace("name: orders\n", "name: r" + i + "\n"));
    }

    assertThat(errors(tree, ManifestOptions.defaults().withMaxObjects(2))).containsExactly(
        "functions: declares more than 2 objects besides Functions, ConfigMaps and Secrets, the most one revision may"
            + " declare; split them over several FunctionRepositories");
  }

  @Test
  void allowedKindsAreApiVersionSlashKindAndNeverGitfnsOwn() {
    assertThat(AllowedKinds.parse(List.of("v1/ConfigMap", " networking.k8s.io/v1/Ingress ", "")).shown())
        .isEqualTo("networking.k8s.io/v1/Ingress, v1/ConfigMap");
    assertThatThrownBy(() -> AllowedKinds.parse(List.of("Ingress", "apps/v1/deployment",
        "serverless.kyma-project.io/v1alpha2/Function")))
        .hasMessage("`Ingress` is not apiVersion/Kind, as in v1/ConfigMap or"
            + " gateway.networking.k8s.io/v1/HTTPRoute; `apps/v1/deployment` is not apiVersion/Kind, as in"
            + " v1/ConfigMap or gateway.networking.k8s.io/v1/HTTPRoute; `serverless.kyma-project.io/v1alpha2/Function`"
            + " is gitfn's own kind, which a repository declares as a Function or not at all");
  }
}
