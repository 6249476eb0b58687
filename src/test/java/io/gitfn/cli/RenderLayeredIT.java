package io.gitfn.cli;

import static io.gitfn.cli.RenderCommandTest.render;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.gitfn.build.DependencyInstallJob;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.gitfn.api.function.TestFunction;
import io.gitfn.testbed.OciRegistry;
import io.gitfn.testbed.PackContainer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code gitfn render --with-workloads --builder layered} asks a real registry, as the controller does, whether a
 * Function's dependency image is there: it prints the install Job and its ConfigMap for a dependency change, and no
 * Job for a handler-only change. The registry is written to only by this test, which plays the printed Job's pack
 * container from its arguments; render itself pushes nothing.
 */
class RenderLayeredIT {

  private static final String PACKAGE = "{\"name\": \"orders\", \"dependencies\": {\"ms\": \"2.1.3\"}}";

  @TempDir Path folder;
  @TempDir Path scratch;

  @Test
  void aDependencyChangePrintsTheInstallJobAndAHandlerOnlyChangeNone() throws Exception {
    try (OciRegistry registry = OciRegistry.startWithNodeBase()) {
      String address = registry.address();
      String[] options = {"--with-workloads", "-o", "json", "--builder", "layered", "--registry", address,
          "--insecure-registry", address, "--base-image", "nodejs22=" + address + "/" + OciRegistry.NODE_BASE,
          "--namespace", "shop"};
      write("orders v1", PACKAGE);
      int pushedBefore = registry.requests().size(); // the base image

      CliRun first = renderWith(options);
      assertThat(first.exitCode()).as(first.err()).isZero();
      List<String> kinds = kindsAndNames(first);
      JsonNode job = only(first, "Job");
      String name = job.at("/metadata/name").asText();
      assertThat(name).matches("gitfn-deps-[0-9a-f]{32}");
      assertThat(kinds).as("the install's ConfigMap and Job, then the workloads")
          .containsExactly("Function orders", "ConfigMap " + name, "Job " + name, "Deployment orders",
              "Service orders");
      List<String> pack = args(packContainer(job).path("args"));
      assertThat(pack.get(pack.indexOf("--to") + 1)).startsWith(address + "/shop/gitfn-dependencies:deps-");
      assertThat(registry.requests().subList(pushedBefore, registry.requests().size())).as("render only reads")
          .isNotEmpty().allMatch(r -> r.method().equals("GET")
          || r.method().equals("HEAD"));

      try (PackContainer container = new PackContainer(registry, scratch)) {
        container.play(pack);
      }
      write("orders v2", PACKAGE);
      CliRun handlerOnly = renderWith(options);
      assertThat(handlerOnly.exitCode()).as(handlerOnly.err()).isZero();
      assertThat(kindsAndNames(handlerOnly)).as("the dependency image is there: no Job")
          .containsExactly("Function orders", "Deployment orders", "Service orders");

      write("orders v2", "{\"name\": \"orders\", \"dependencies\": {\"ms\": \"2.1.3\", \"vary\": \"1.1.2\"}}");
      CliRun dependencyChange = renderWith(options);
      assertThat(only(dependencyChange, "Job").at("/metadata/name").asText()).as("a new dependency key")
          .matches("gitfn-deps-[0-9a-f]{32}").isNotEqualTo(name);
    }
  }

  @Test
  void aRegistryThatCannotBeAskedIsANoticeAndNoJob() throws Exception {
    write("orders v1", PACKAGE);

    CliRun run = renderWith("--with-workloads", "--builder", "layered", "--registry", "127.0.0.1:1",
        "--insecure-registry", "127.0.0.1:1", "--base-image", "nodejs22=127.0.0.1:1/base/nodejs22:1");

    assertThat(run.exitCode()).isZero();
    assertThat(run.err()).contains("notice: whether Function default/orders needs an install Job is not known, so"
        + " none is printed: ").contains("127.0.0.1:1");
    assertThat(run.out()).doesNotContain("kind: \"Job\"").contains("kind: \"Deployment\"");
  }

  private void write(String answer, String dependencies) throws Exception {
    Files.writeString(folder.resolve("orders.yaml"), TestFunction.declared("orders")
        .code("module.exports = { main: () => '" + answer + "' };\n").dependencies(dependencies).toYaml());
  }

  private CliRun renderWith(String... options) {
    List<String> arguments = new ArrayList<>(List.of(folder.toString()));
    arguments.addAll(List.of(options));
    return render(arguments.toArray(String[]::new));
  }

  private static JsonNode packContainer(JsonNode job) {
    for (JsonNode container : job.at("/spec/template/spec/containers")) {
      if (container.path("name").asText().equals(DependencyInstallJob.PACK)) {
        return container;
      }
    }
    throw new AssertionError("the install Job has no pack container: " + job);
  }

  private static List<String> args(JsonNode node) {
    List<String> args = new ArrayList<>();
    node.forEach(arg -> args.add(arg.asText()));
    return args;
  }

  private static List<String> kindsAndNames(CliRun run) throws Exception {
    List<String> kinds = new ArrayList<>();
    new ObjectMapper().readTree(run.out()).path("items").forEach(item -> kinds.add(item.path("kind").asText() + " "
        + item.at("/metadata/name").asText()));
    return kinds;
  }

  private static JsonNode only(CliRun run, String kind) throws Exception {
    List<JsonNode> found = new ArrayList<>();
    new ObjectMapper().readTree(run.out()).path("items").forEach(item -> {
      if (item.path("kind").asText().equals(kind)) {
        found.add(item);
      }
    });
    assertThat(found).as(kind + " in " + run.err()).hasSize(1);
    return found.get(0);
  }
}
