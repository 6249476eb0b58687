package io.gitfn.cli;

import static io.gitfn.cli.RenderCommandTest.render;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.gitfn.secrets.sops.Fixtures;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code gitfn render} of a folder with ConfigMaps: printed between the encrypted Secrets and the Functions, in the
 * namespace of {@code -n} as the FunctionRepository there applies them; one it would refuse exits 1 and prints
 * nothing.
 */
class RenderConfigMapsTest {

  private static final String SETTINGS = """
      apiVersion: v1
      kind: ConfigMap
      metadata:
        name: orders-settings
        labels: {app: orders}
      data:
        region: eu-1
        port: "8080"
      """;

  @TempDir Path folder;

  @BeforeEach
  void aFolderWithAFunctionAnEncryptedSecretAndAConfigMap() throws IOException {
    write("fns/a/handler.js", "module.exports = {};\n");
    write("fns/a/package.json", "{}\n");
    write("secrets/orders-db.yaml", Fixtures.text("orders-db-flux.sops.yaml"));
    write("config/settings.yaml", SETTINGS);
  }

  @Test
  void configMapsArePrintedAfterTheSecretsAndBeforeTheFunctionsInTheDefaultNamespace() throws Exception {
    CliRun run = render(folder.toString(), "-o", "json");

    assertThat(run.exitCode()).as(run.err()).isZero();
    List<JsonNode> items = items(run);
    assertThat(items).extracting(i -> i.path("kind").asText() + " " + i.at("/metadata/name").asText())
        .containsExactly("Secret orders-db", "ConfigMap orders-settings", "Function a");
    JsonNode configMap = items.get(1);
    assertThat(configMap.at("/metadata/namespace").asText()).isEqualTo("default");
    assertThat(configMap.at("/metadata/labels/app").asText()).isEqualTo("orders");
    assertThat(configMap.at("/data/port").asText()).isEqualTo("8080");
    assertThat(configMap.at("/data/region").asText()).isEqualTo("eu-1");
  }

  @Test
  void theNamespaceOptionPlacesThemWithoutWithWorkloadsAsTheRepositoryThereWould() throws Exception {
    CliRun run = render(folder.toString(), "-n", "shop");

    assertThat(run.exitCode()).as(run.err()).isZero();
    ConfigMap printed = new KubernetesSerialization().unmarshal(run.out().split("(?m)^---\n")[2], ConfigMap.class);
    assertThat(printed.getMetadata().getNamespace()).isEqualTo("shop");
    assertThat(printed.getData()).containsEntry("port", "8080");
  }

  @Test
  void aConfigMapNamingTheRepositorysNamespaceIsPrintedAndOneNamingAnotherIsRefusedSayingWhichWasChecked()
      throws Exception {
    write("config/settings.yaml", SETTINGS.replace("  name: orders-settings\n",
        "  name: orders-settings\n  namespace: shop\n"));

    CliRun inShop = render(folder.toString(), "-n", "shop");
    CliRun unnamed = render(folder.toString());

    assertThat(inShop.exitCode()).as(inShop.err()).isZero();
    assertThat(unnamed.exitCode()).isEqualTo(RenderCommand.INVALID);
    assertThat(unnamed.out()).isEmpty();
    assertThat(unnamed.err()).contains(
        "an object names another namespace than the repository's; nothing would be applied:\n"
            + "config/settings.yaml:1: metadata.namespace: is `shop`, not `default`, the namespace of the"
            + " FunctionRepository; a repository's ConfigMaps go to its own namespace: remove metadata.namespace or"
            + " set it to default\n"
            + "(checked as a FunctionRepository in namespace default would check them; -n NS names the"
            + " repository's namespace)\n");
  }

  @Test
  void anInvalidConfigMapMakesTheRevisionInvalidAtItsLine() throws Exception {
    write("config/settings.yaml", SETTINGS.replace("port: \"8080\"", "port: 8080"));

    CliRun run = render(folder.toString());

    assertThat(run.exitCode()).isEqualTo(RenderCommand.INVALID);
    assertThat(run.out()).isEmpty();
    assertThat(run.err()).contains("the revision is invalid; nothing would be applied:\n"
        + "config/settings.yaml:8: data[port]: is the number 8080, not a string: YAML reads an unquoted number as"
        + " one, and a ConfigMap holds strings; quote it, as \"8080\"");
  }

  private static List<JsonNode> items(CliRun run) throws IOException {
    List<JsonNode> items = new ArrayList<>();
    new ObjectMapper().readTree(run.out()).path("items").forEach(items::add);
    return items;
  }

  private void write(String path, String text) throws IOException {
    Path file = folder.resolve(path);
    Files.createDirectories(file.getParent());
    Files.writeString(file, text);
  }
}
