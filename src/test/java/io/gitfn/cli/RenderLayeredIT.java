package io.gitfn.cli;

import static io.gitfn.cli.RenderCommandTest.render;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.gitfn.api.function.FunctionRuntime;
import io.gitfn.api.function.TestFunction;
import io.gitfn.packer.DependencyImage;
import io.gitfn.registry.ImageAssembler;
import io.gitfn.registry.ImageName;
import io.gitfn.registry.RegistryAccess;
import io.gitfn.testbed.OciRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
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

  @Test
  void aDependencyChangePrintsTheInstallJobAndAHandlerOnlyChangeNone() throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(2);
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
      List<String> pack = args(job.at("/spec/template/spec/containers/0/args"));
      assertThat(pack.get(pack.indexOf("--to") + 1)).startsWith(address + "/shop/gitfn-dependencies:deps-");
      assertThat(registry.requests().subList(pushedBefore, registry.requests().size())).as("render only reads")
          .isNotEmpty().allMatch(r -> r.method().equals("GET")
          || r.method().equals("HEAD"));

      playPack(pack, registry, pool);
      write("orders v2", PACKAGE);
      CliRun handlerOnly = renderWith(options);
      assertThat(handlerOnly.exitCode()).as(handlerOnly.err()).isZero();
      assertThat(kindsAndNames(handlerOnly)).as("the dependency image is there: no Job")
          .containsExactly("Function orders", "Deployment orders", "Service orders");

      write("orders v2", "{\"name\": \"orders\", \"dependencies\": {\"ms\": \"2.1.3\", \"vary\": \"1.1.2\"}}");
      CliRun dependencyChange = renderWith(options);
      assertThat(only(dependencyChange, "Job").at("/metadata/name").asText()).as("a new dependency key")
          .matches("gitfn-deps-[0-9a-f]{32}").isNotEqualTo(name);
    } finally {
      pool.shutdownNow();
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

  /** What the Job's pack container does, from its own arguments: the runtime image, then the dependency image. */
  private static void playPack(List<String> pack, OciRegistry registry, ExecutorService pool) throws Exception {
    ImageAssembler assembler = new ImageAssembler(RegistryAccess.anonymous(Set.of(registry.address())), "gitfn-test",
        pool, Duration.ofSeconds(30));
    Path installed = Files.createTempDirectory("installed-");
    Files.createDirectories(installed.resolve("runtime/node_modules/cloudevents"));
    Files.writeString(installed.resolve("runtime/server.mjs"), "// gitfn's server\n");
    Files.createDirectories(installed.resolve("function/node_modules/ms"));
    Files.writeString(installed.resolve("function/node_modules/ms/index.js"), "module.exports = () => '1m';\n");
    Files.writeString(installed.resolve("function/package.json"), PACKAGE);
    new DependencyImage(assembler, Files.createTempDirectory("scratch-")).push(FunctionRuntime.NODEJS22, installed,
        ImageName.parse(value(pack, "--base")), ImageName.parse(value(pack, "--runtime-image")),
        ImageName.parse(value(pack, "--to")));
  }

  private static String value(List<String> args, String option) {
    return args.get(args.indexOf(option) + 1);
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
