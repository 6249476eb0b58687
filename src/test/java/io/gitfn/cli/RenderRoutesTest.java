package io.gitfn.cli;

import static io.gitfn.cli.RenderCommandTest.render;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code gitfn render} of a folder with routes: printed after the Functions, as the file has them less status, in the
 * namespace of {@code -n}; a Kyma CLI config.yaml's apiRules as the APIRules the controller applies for them.
 */
class RenderRoutesTest {

  @TempDir Path folder;

  @BeforeEach
  void aKymaFolderWithApiRulesAndAnHttpRouteBesideIt() throws IOException {
    write("fns/orders/config.yaml", """
        name: orders
        runtime: nodejs22
        apiRules:
          - service: {host: orders.example.com}
            rules: [{path: /.*, methods: [GET], accessStrategies: [{handler: allow}]}]
        """);
    write("fns/orders/handler.js", "module.exports = {};\n");
    write("fns/orders/package.json", "{}\n");
    write("fns/route.yaml", """
        apiVersion: gateway.networking.k8s.io/v1
        kind: HTTPRoute
        metadata:
          name: orders
        spec:
          parentRefs: [{name: gitfn-gateway}]
          rules: [{backendRefs: [{name: orders, port: 80}]}]
        status: {parents: []}
        """);
  }

  @Test
  void routesFollowTheFunctionsInTheRepositorysNamespace() throws Exception {
    CliRun run = render(folder.toString(), "-n", "shop", "-o", "json");

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.err()).isEmpty();
    List<JsonNode> items = new ArrayList<>();
    new ObjectMapper().readTree(run.out()).path("items").forEach(items::add);
    assertThat(items).extracting(i -> i.path("apiVersion").asText() + " " + i.path("kind").asText() + " "
        + i.at("/metadata/namespace").asText() + "/" + i.at("/metadata/name").asText()).containsExactly(
        "serverless.kyma-project.io/v1alpha2 Function /orders",
        "gateway.kyma-project.io/v2 APIRule shop/orders",
        "gateway.networking.k8s.io/v1 HTTPRoute shop/orders");
    assertThat(items.get(1).at("/spec/hosts/0").asText()).isEqualTo("orders.example.com");
    assertThat(items.get(1).at("/spec/rules/0/noAuth").asBoolean()).isTrue();
    assertThat(items.get(2).has("status")).isFalse();
  }

  @Test
  void aRouteNamingAnotherNamespaceIsRefused() throws Exception {
    CliRun run = render(folder.toString(), "-n", "shop");
    write("fns/route.yaml", Files.readString(folder.resolve("fns/route.yaml")).replace("  name: orders\n",
        "  name: orders\n  namespace: kube-system\n"));

    CliRun refused = render(folder.toString(), "-n", "shop");

    assertThat(run.exitCode()).isZero();
    assertThat(refused.exitCode()).isEqualTo(RenderCommand.INVALID);
    assertThat(refused.out()).isEmpty();
    assertThat(refused.err()).contains("fns/route.yaml:1: metadata.namespace: is `kube-system`, not `shop`");
  }

  private void write(String path, String text) throws IOException {
    Path file = folder.resolve(path);
    Files.createDirectories(file.getParent());
    Files.writeString(file, text);
  }
}
