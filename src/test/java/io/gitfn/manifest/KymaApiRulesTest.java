package io.gitfn.manifest;

import static io.gitfn.manifest.ManifestReaderTest.errors;
import static io.gitfn.manifest.ManifestReaderTest.read;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A Kyma CLI config.yaml's apiRules become APIRules of gateway.kyma-project.io/v2, translated where v2 says the same
 * thing and refused at their line where it cannot; never guessed.
 */
class KymaApiRulesTest {

  private static FakeTree folder(String apiRules) {
    return FakeTree.of(
        "functions/orders/config.yaml", "name: orders\nnamespace: shop\nruntime: nodejs22\napiRules:\n" + apiRules,
        "functions/orders/handler.js", "x",
        "functions/orders/package.json", "{}");
  }

  @Test
  void theClisDefaultsAndAllowBecomeAnOpenApiRuleForTheFunctionsService() throws Exception {
    Manifest manifest = read(folder("""
          - rules:
              - path: /.*
                methods: [get, POST]
                accessStrategies: [{handler: allow}]
              - path: /admin/.*
                methods: [DELETE]
                accessStrategies:
                  - handler: jwt
                    config:
                      trustedIssuers: [https://issuer.example.com]
                      jwksUrls: [https://issuer.example.com/jwks]
                      requiredScope: [admin]
        """));

    assertThat(manifest.notices()).isEmpty();
    DeclaredObject rule = manifest.objects().get(0);
    assertThat(rule.toString()).isEqualTo("DeclaredObject[functions/orders/config.yaml:5, APIRule orders]");
    assertThat(rule.object().getMetadata().getNamespace()).isEqualTo("shop");
    assertThat(new ObjectMapper().convertValue(rule.object(), Map.class)).isEqualTo(Map.of(
        "apiVersion", "gateway.kyma-project.io/v2",
        "kind", "APIRule",
        "metadata", Map.of("name", "orders", "namespace", "shop"),
        "spec", Map.of(
            "hosts", List.of("orders"),
            "service", Map.of("name", "orders", "port", 80),
            "gateway", "kyma-system/kyma-gateway",
            "rules", List.of(
                Map.of("path", "/*", "methods", List.of("GET", "POST"), "noAuth", true),
                Map.of("path", "/admin/{**}", "methods", List.of("DELETE"), "jwt", Map.of(
                    "authentications", List.of(Map.of("issuer", "https://issuer.example.com",
                        "jwksUri", "https://issuer.example.com/jwks")),
                    "authorizations", List.of(Map.of("requiredScopes", List.of("admin")))))))));
  }

  @Test
  void aNamedHostPortAndAClusterAddressOfTheGatewayAreKept() throws Exception {
    Manifest manifest = read(folder("""
          - name: orders-public
            gateway: public-gateway.gateways.svc.cluster.local
            service: {host: orders.example.com, port: 8080}
            rules: [{path: /orders, methods: [GET], accessStrategies: [{handler: noop}]}]
        """));

    Map<?, ?> spec = (Map<?, ?>) manifest.objects().get(0).object().getAdditionalProperties().get("spec");
    assertThat(manifest.objects().get(0).name()).isEqualTo("orders-public");
    assertThat(spec.get("hosts")).isEqualTo(List.of("orders.example.com"));
    assertThat(spec.get("service")).isEqualTo(Map.of("name", "orders", "port", 8080));
    assertThat(spec.get("gateway")).isEqualTo("gateways/public-gateway");
  }

  @Test
  void whatApiRuleV2CannotSayIsAnErrorAtItsLine() {
    assertThat(errors(folder("""
          - rules:
              - path: /items/[0-9]+
                methods: [GET]
                accessStrategies: [{handler: oauth2_introspection}]
              - path: /.*
                accessStrategies: [{handler: jwt, config: {trustedIssuers: [a, b], jwksUrls: [c]}}]
          - name: second
        """))).containsExactly(
        "functions/orders/config.yaml:6: apiRules[0].rules[0].path: `/items/[0-9]+` is a regular expression that"
            + " APIRule v2 cannot say (it takes exact paths, /* and the {*} and {**} operators); write the path so,"
            + " or declare an APIRule v2 of your own",
        "functions/orders/config.yaml:8: apiRules[0].rules[0].accessStrategies[0].handler: oauth2_introspection has"
            + " no equivalent in APIRule v2 (Kyma removed Ory Oathkeeper); declare an APIRule v2 of your own with"
            + " extAuth, beside the Function",
        "functions/orders/config.yaml:9: apiRules[0].rules[1].methods: is missing or empty; list the HTTP methods the path"
            + " takes, as [GET, POST]",
        "functions/orders/config.yaml:10: apiRules[0].rules[1].accessStrategies[0].config: needs trustedIssuers and"
            + " jwksUrls of the same length: APIRule v2 pairs each issuer with its JWKS URL (jwt.authentications),"
            + " which 2 issuers and 1 URLs do not say",
        "functions/orders/config.yaml:11: apiRules[1].rules: is missing or empty; give each path its methods and"
            + " access strategy (APIRule v2 has no default, and gitfn does not expose a Function without being told"
            + " how)");
  }

  @Test
  void withoutApiRulesAllowedTheyAreANotice() throws Exception {
    Manifest manifest = new ManifestReader(ManifestOptions.defaults().withAllowedKinds(AllowedKinds.parse(
        List.of("v1/ConfigMap")))).read(folder("  - name: orders\n"), "functions", List.of());

    assertThat(manifest.objects()).isEmpty();
    assertThat(manifest.notices()).extracting(ManifestNotice::toString).containsExactly(
        "functions/orders/config.yaml:4: apiRules are not applied: the controller does not allow"
            + " gateway.kyma-project.io/v2/APIRule (it takes v1/ConfigMap)");
  }
}
