package io.gitfn.preview;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A preview's routes: each in the preview's namespace with the one host {@code spec.previews.host} gives the Function
 * it sends its traffic to, never one of production's hosts; and the URL a pull request is told about.
 */
class PreviewRoutesTest {

  private static final KubernetesSerialization YAML = new KubernetesSerialization();
  private static final HostTemplate TEMPLATE = HostTemplate.parse("{function}-pr-{number}.preview.example.com");
  private static final PreviewContext PR_7 = new PreviewContext(7, "shop", "team-a", "team-a-pr-7");

  static final String HTTP_ROUTE = """
      apiVersion: gateway.networking.k8s.io/v1
      kind: HTTPRoute
      metadata:
        name: orders
        namespace: team-a
        labels: {app: orders}
      spec:
        parentRefs:
          - {name: public}
          - {name: shared, namespace: gateways}
          - {group: "", kind: Service, name: orders}
        hostnames: [orders.example.com, www.orders.example.com]
        rules:
          - matches: [{path: {type: PathPrefix, value: /orders}}]
            backendRefs:
              - {group: example.io, kind: Backend, name: cache}
              - {kind: Service, name: orders, port: 80}
          - backendRefs: [{name: payments, port: 80}]
      """;

  static final String INGRESS = """
      apiVersion: networking.k8s.io/v1
      kind: Ingress
      metadata:
        name: shop
      spec:
        defaultBackend: {service: {name: catalog, port: {number: 80}}}
        tls: [{hosts: [orders.example.com], secretName: orders-tls}]
        rules:
          - host: orders.example.com
            http:
              paths:
                - {path: /static, pathType: Prefix, backend: {resource: {apiGroup: example.io, kind: Bucket, name: s}}}
                - {path: /orders, pathType: Prefix, backend: {service: {name: orders, port: {number: 80}}}}
          - http:
              paths:
                - {path: /, pathType: Prefix, backend: {service: {name: payments, port: {number: 80}}}}
          - host: catalog.example.com
      """;

  static final String API_RULE = """
      apiVersion: gateway.kyma-project.io/v2
      kind: APIRule
      metadata:
        name: orders
      spec:
        hosts: [orders.example.com]
        service: {name: orders, port: 80}
        gateway: kyma-system/kyma-gateway
        rules:
          - {path: /orders, methods: [GET], noAuth: true}
      """;

  @Test
  void anHttpRouteTakesTheHostOfItsFirstServiceBackendInThePreviewsNamespace() {
    GenericKubernetesResource route = read(HTTP_ROUTE);

    GenericKubernetesResource preview = PreviewRoutes.rewrite(route, TEMPLATE, PR_7);

    assertThat(preview.getMetadata().getNamespace()).isEqualTo("team-a-pr-7");
    assertThat(preview.getMetadata().getLabels()).containsEntry("app", "orders");
    assertThat((List<Object>) preview.get("spec", "hostnames")).containsExactly("orders-pr-7.preview.example.com");
    assertThat(preview.get("spec", "rules", 1, "backendRefs", 0, "name").toString()).isEqualTo("payments");
  }

  @Test
  void anHttpRoutesGatewayWithoutANamespaceIsTheOneBesideTheRepository() {
    GenericKubernetesResource preview = PreviewRoutes.rewrite(read(HTTP_ROUTE), TEMPLATE, PR_7);

    assertThat(preview.get("spec", "parentRefs", 0, "namespace").toString()).isEqualTo("team-a");
    assertThat(preview.get("spec", "parentRefs", 1, "namespace").toString()).isEqualTo("gateways");
    assertThat((Object) preview.get("spec", "parentRefs", 2, "namespace"))
        .as("a mesh route's Service parent is the preview's own Service").isNull();
  }

  @Test
  void theRouteItWasGivenIsNotChanged() {
    GenericKubernetesResource route = read(HTTP_ROUTE);

    PreviewRoutes.rewrite(route, TEMPLATE, PR_7);

    assertThat(route).isEqualTo(read(HTTP_ROUTE));
    assertThat(route.getMetadata().getNamespace()).isEqualTo("team-a");
  }

  @Test
  void anHttpRouteWithoutAServiceBackendNamesNoFunction() {
    GenericKubernetesResource redirect = read("""
        apiVersion: gateway.networking.k8s.io/v1
        kind: HTTPRoute
        metadata:
          name: redirect
        spec:
          parentRefs: [{name: public}]
          rules:
            - filters: [{type: RequestRedirect, requestRedirect: {scheme: https}}]
            - backendRefs: [{group: example.io, kind: Backend, name: cache}]
        """);

    assertThatThrownBy(() -> PreviewRoutes.rewrite(redirect, TEMPLATE, PR_7))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("HTTPRoute redirect names no Service to send its traffic to, so no Function for the {function} of"
            + " spec.previews.host");
  }

  @Test
  void eachIngressRuleTakesTheHostOfItsFirstServiceElseOfTheDefaultBackendAndTheTlsGoes() {
    GenericKubernetesResource preview = PreviewRoutes.rewrite(read(INGRESS), TEMPLATE, PR_7);

    assertThat(preview.getMetadata().getNamespace()).isEqualTo("team-a-pr-7");
    assertThat(preview.get("spec", "rules", 0, "host").toString()).isEqualTo("orders-pr-7.preview.example.com");
    assertThat(preview.get("spec", "rules", 1, "host").toString()).isEqualTo("payments-pr-7.preview.example.com");
    assertThat(preview.get("spec", "rules", 2, "host").toString()).isEqualTo("catalog-pr-7.preview.example.com");
    assertThat((Object) preview.get("spec", "tls")).isNull();
  }

  @Test
  void anIngressRuleWithoutAServiceAndWithoutADefaultBackendNamesNoFunction() {
    GenericKubernetesResource ingress = read("""
        apiVersion: networking.k8s.io/v1
        kind: Ingress
        metadata:
          name: shop
        spec:
          rules:
            - http:
                paths:
                  - {path: /, pathType: Prefix, backend: {service: {name: orders, port: {number: 80}}}}
            - host: catalog.example.com
        """);

    assertThatThrownBy(() -> PreviewRoutes.rewrite(ingress, TEMPLATE, PR_7))
        .hasMessage("Ingress shop names no Service in spec.rules[1].http.paths nor in spec.defaultBackend, so no"
            + " Function for the {function} of spec.previews.host");
  }

  @Test
  void anIngressWithADefaultBackendAndNoRulesWouldTakeEveryHostsTraffic() {
    GenericKubernetesResource catchAll = read("""
        apiVersion: networking.k8s.io/v1
        kind: Ingress
        metadata:
          name: everything
        spec:
          defaultBackend: {service: {name: orders, port: {number: 80}}}
        """);

    assertThatThrownBy(() -> PreviewRoutes.rewrite(catchAll, TEMPLATE, PR_7))
        .hasMessage("Ingress everything has a defaultBackend and no rules: in a preview it would take the traffic of"
            + " every host; give it a rule, which the preview gives its own host");
  }

  @Test
  void anIngressWithoutRulesOrBackendNamesNoFunction() {
    assertThatThrownBy(() -> PreviewRoutes.rewrite(read("""
        apiVersion: networking.k8s.io/v1
        kind: Ingress
        metadata:
          name: empty
        spec: {ingressClassName: nginx}
        """), TEMPLATE, PR_7)).hasMessageStartingWith("Ingress empty names no Service to send its traffic to");
  }

  @Test
  void anApiRuleTakesTheHostOfItsServiceElseOfItsFirstRulesService() {
    GenericKubernetesResource preview = PreviewRoutes.rewrite(read(API_RULE), TEMPLATE, PR_7);
    GenericKubernetesResource perRule = PreviewRoutes.rewrite(read("""
        apiVersion: gateway.kyma-project.io/v2
        kind: APIRule
        metadata:
          name: shop
        spec:
          hosts: [shop.example.com]
          gateway: kyma-system/kyma-gateway
          rules:
            - {path: /health, methods: [GET], noAuth: true}
            - {path: /orders, methods: [GET], noAuth: true, service: {name: orders, port: 80}}
            - {path: /payments, methods: [GET], noAuth: true, service: {name: payments, port: 80}}
        """), TEMPLATE, PR_7);

    assertThat(preview.getMetadata().getNamespace()).isEqualTo("team-a-pr-7");
    assertThat((List<Object>) preview.get("spec", "hosts")).containsExactly("orders-pr-7.preview.example.com");
    assertThat(preview.get("spec", "gateway").toString()).isEqualTo("kyma-system/kyma-gateway");
    assertThat((List<Object>) perRule.get("spec", "hosts")).containsExactly("orders-pr-7.preview.example.com");
  }

  @Test
  void anApiRuleWithoutAServiceNamesNoFunction() {
    assertThatThrownBy(() -> PreviewRoutes.rewrite(read(API_RULE.replace("  service: {name: orders, port: 80}\n", "")),
        TEMPLATE, PR_7)).hasMessage("APIRule orders names no Service to send its traffic to, so no Function for the"
            + " {function} of spec.previews.host");
  }

  @Test
  void aHostThatIsNotOneIsRefusedNamingTheRoute() {
    String longName = "a".repeat(60);

    assertThatThrownBy(() -> PreviewRoutes.rewrite(read(API_RULE.replace("{name: orders,", "{name: " + longName + ",")),
        TEMPLATE, PR_7)).hasMessageStartingWith("APIRule orders: spec.previews.host `{function}-pr-{number}.preview"
            + ".example.com` gives `" + longName + "-pr-7.preview.example.com` for function `" + longName + "`")
        .hasMessageEndingWith("has 65 characters, more than 63");
  }

  @Test
  void anyOtherKindIsNotARouteAPreviewRewrites() {
    GenericKubernetesResource gateway = read("""
        apiVersion: gateway.networking.k8s.io/v1
        kind: Gateway
        metadata:
          name: public
        spec:
          gatewayClassName: istio
          listeners: [{name: http, port: 80, protocol: HTTP, hostname: orders.example.com}]
        """);
    GenericKubernetesResource lookalike = read(API_RULE.replace("gateway.kyma-project.io/v2", "example.io/v1"));

    assertThatThrownBy(() -> PreviewRoutes.rewrite(gateway, TEMPLATE, PR_7))
        .hasMessage("Gateway public (gateway.networking.k8s.io/v1) is not a route a preview can apply: previews"
            + " rewrite the hosts of HTTPRoutes, Ingresses and APIRules only");
    assertThatThrownBy(() -> PreviewRoutes.rewrite(lookalike, TEMPLATE, PR_7))
        .hasMessageStartingWith("APIRule orders (example.io/v1) is not a route a preview can apply");
  }

  @Test
  void theUrlIsTheFirstRoutesHostWithItsFirstLiteralPath() {
    GenericKubernetesResource route = PreviewRoutes.rewrite(read(HTTP_ROUTE), TEMPLATE, PR_7);
    GenericKubernetesResource ingress = PreviewRoutes.rewrite(read(INGRESS), TEMPLATE, PR_7);
    GenericKubernetesResource apiRule = PreviewRoutes.rewrite(read(API_RULE), TEMPLATE, PR_7);

    assertThat(url(route, ingress)).hasValue("http://orders-pr-7.preview.example.com/orders");
    assertThat(url(ingress, route)).hasValue("http://orders-pr-7.preview.example.com/static");
    assertThat(url(apiRule)).hasValue("http://orders-pr-7.preview.example.com/orders");
  }

  @Test
  void aPathThatIsAPatternIsNotOpenedSoTheUrlIsTheRoot() {
    GenericKubernetesResource regex = PreviewRoutes.rewrite(read(HTTP_ROUTE.replace("{type: PathPrefix, value:"
        + " /orders}", "{type: RegularExpression, value: \"/orders/.*\"}")), TEMPLATE, PR_7);
    GenericKubernetesResource anyPath = PreviewRoutes.rewrite(read(HTTP_ROUTE.replace("  - matches: [{path: {type:"
        + " PathPrefix, value: /orders}}]\n      backendRefs:", "  - backendRefs:")), TEMPLATE, PR_7);
    GenericKubernetesResource specific = PreviewRoutes.rewrite(read(INGRESS.replace("{path: /static, pathType:"
        + " Prefix", "{path: /static, pathType: ImplementationSpecific")), TEMPLATE, PR_7);
    GenericKubernetesResource operator = PreviewRoutes.rewrite(read(API_RULE.replace("path: /orders,",
        "path: \"/orders/{**}\",")), TEMPLATE, PR_7);
    GenericKubernetesResource everything = PreviewRoutes.rewrite(read(API_RULE.replace("path: /orders,",
        "path: \"/*\",")), TEMPLATE, PR_7);

    assertThat(List.of(regex, anyPath, specific, operator, everything)).allSatisfy(route ->
        assertThat(url(route)).hasValue("http://orders-pr-7.preview.example.com/"));
  }

  @Test
  void withoutARouteTheUrlIsTheFirstFunctionsClusterAddressAndWithoutAFunctionThereIsNone() {
    assertThat(PreviewRoutes.url(List.of(), List.of("orders", "payments"), "team-a-pr-7"))
        .hasValue("http://orders.team-a-pr-7.svc.cluster.local/");
    assertThat(PreviewRoutes.url(List.of(), List.of(), "team-a-pr-7")).isEmpty();
  }

  private static Optional<String> url(GenericKubernetesResource... routes) {
    return PreviewRoutes.url(List.of(routes), List.of("orders"), "team-a-pr-7");
  }

  private static GenericKubernetesResource read(String yaml) {
    return YAML.unmarshal(yaml, GenericKubernetesResource.class);
  }
}
