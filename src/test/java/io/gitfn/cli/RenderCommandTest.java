package io.gitfn.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.gitfn.api.Annotations;
import io.gitfn.api.function.Function;
import io.gitfn.api.function.FunctionRuntime;
import io.gitfn.api.function.TestFunction;
import io.gitfn.build.BuildContext;
import io.gitfn.build.BuildSettings;
import io.gitfn.build.BuildlessSource;
import io.gitfn.build.ContentKey;
import io.gitfn.build.FunctionBuildPlan;
import io.gitfn.manifest.ManifestOptions;
import io.gitfn.manifest.ManifestReader;
import io.gitfn.registry.FunctionImages;
import io.gitfn.registry.ImageName;
import io.gitfn.registry.RegistryFailure;
import io.gitfn.source.FolderTree;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code gitfn render <folder>}: what it prints and how it exits, run in-process. */
class RenderCommandTest {

  @TempDir Path folder;

  static CliRun render(String... arguments) {
    String[] all = new String[arguments.length + 1];
    all[0] = "render";
    System.arraycopy(arguments, 0, all, 1, arguments.length);
    return CliRun.of(all);
  }

  private void write(String path, String text) throws IOException {
    Path file = folder.resolve(path);
    Files.createDirectories(file.getParent());
    Files.writeString(file, text);
  }

  @Test
  void printsTheFunctionsOfAFolderAsYamlDocuments() throws Exception {
    write("functions/b/handler.py", "def main(event, context):\n    return 'b'\n");
    write("functions/b/requirements.txt", "");
    write("functions/a/handler.js", "module.exports = {};\n");
    write("functions/a/package.json", "{}\n");

    CliRun run = render(folder.toString());

    assertThat(run.exitCode()).isZero();
    assertThat(run.err()).isEmpty();
    assertThat(run.out()).startsWith("---\n").contains("name: \"a\"", "name: \"b\"", "runtime: \"python312\"");
    assertThat(run.out().indexOf("name: \"a\"")).isLessThan(run.out().indexOf("name: \"b\""));
    assertThat(run.out().split("(?m)^---$")).hasSize(3);
  }

  @Test
  void printsAJsonListWithOutputJson() throws Exception {
    write("fns/a/handler.js", "module.exports = {};\n");
    write("fns/a/package.json", "{}\n");

    CliRun run = render(folder.toString(), "--path", "fns", "-o", "json");

    assertThat(run.exitCode()).isZero();
    JsonNode list = new ObjectMapper().readTree(run.out());
    assertThat(list.path("kind").asText()).isEqualTo("List");
    assertThat(list.path("items").get(0).path("metadata").path("annotations").path("gitfn.io/source-path").asText())
        .isEqualTo("fns/a");
  }

  @Test
  void anInvalidRevisionPrintsEveryErrorWithItsLineAndExitsOne() throws Exception {
    write("functions/orders/config.yaml", "name: orders\nruntime: cobol85\n");
    write("functions/bad.yaml", """
        apiVersion: serverless.kyma-project.io/v1alpha2
        kind: Function
        metadata:
          name: Bad
        spec:
          runtime: nodejs22
          source: {inline: {source: x}}
        """);

    CliRun run = render(folder.toString());

    assertThat(run.exitCode()).isEqualTo(RenderCommand.INVALID);
    assertThat(run.out()).isEmpty();
    assertThat(run.err()).contains(
        "functions/bad.yaml:4: metadata.name: name `Bad` is not a DNS-1035 label",
        "functions/orders/config.yaml:2: spec.runtime: runtime `cobol85` is not one of nodejs20, nodejs22,"
            + " nodejs24, python312");
  }

  @Test
  void noticesGoToStandardError() throws Exception {
    write("secret.yaml", "apiVersion: v1\nkind: Secret\nmetadata: {name: s}\n");

    CliRun run = render(folder.toString());

    assertThat(run.exitCode()).isZero();
    assertThat(run.out()).isEmpty();
    assertThat(run.err()).contains("notice: secret.yaml:2: a Secret (v1) in plain text; ignored: a Secret in Git"
        + " must be encrypted with SOPS (see docs/security.md#encrypted-secrets)");
  }

  @Test
  void aMissingFolderExitsTwo() {
    CliRun run = render(folder.resolve("nowhere").toString());

    assertThat(run.exitCode()).isEqualTo(RenderCommand.UNREADABLE);
    assertThat(run.err()).contains("neither a folder nor a Git URL");
  }

  @Test
  void theGitopsExamplesAreAccepted() throws IOException {
    Path project = Path.of(System.getProperty("gitfn.project.dir", ".")).toRealPath();

    CliRun run = render(project.resolve("gitops-examples").toString());

    assertThat(run.err()).isEmpty();
    assertThat(run.exitCode()).isZero();
    assertThat(run.out()).contains("name: \"hello\"", "name: \"greeter\"", "name: \"py-hello\"", "name: \"orders\"",
        "name: \"orders-from-git\"", "scaleConfig:", "gitRepository:", "name: \"greeting\"",
        "kind: \"ConfigMap\"", "name: \"greeting-settings\"", "configMapKeyRef:", "kind: \"HTTPRoute\"");
    // orders-from-git builds from this repository (url: ./), read from the clone the folder is in.
    assertThat(run.out()).contains("url: \"" + project.toUri().toString() + ".git\"")
        .doesNotContain("name: \"orders-service\"");
  }

  @Test
  void aRelativeGitUrlIsTheRepositoryAroundTheFolderAndItsSiblingIsBesideItsOrigin() throws Exception {
    write("functions/self.yaml", TestFunction.declared("self").gitRepository("./", "main", "sources/self").toYaml());
    write("functions/sibling.yaml", TestFunction.declared("sibling").gitRepository("../orders.git", "main", "/")
        .toYaml());
    git("init", "-q", "-b", "main");
    git("remote", "add", "origin", "https://git.example.com/shop/infra.git");

    CliRun run = render(folder.toString());

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out()).contains("url: \"" + folder.toRealPath().toUri() + ".git\"",
        "url: \"https://git.example.com/shop/orders.git\"");
  }

  @Test
  void aRelativeGitUrlOutsideAGitRepositoryIsAnErrorAtTheFunctionsFileAndField() throws Exception {
    write("functions/self.yaml", TestFunction.declared("self").gitRepository("./", "main", "sources/self").toYaml());

    CliRun run = render(folder.toString());

    assertThat(run.exitCode()).isEqualTo(RenderCommand.INVALID);
    assertThat(run.err()).contains("functions/self.yaml: spec.source.gitRepository.url: `./` cannot be resolved:"
        + " folder " + folder + " is not in a Git repository");
    assertThat(run.out()).isEmpty();
  }

  private void git(String... arguments) throws Exception {
    List<String> command = new ArrayList<>(List.of("git", "-C", folder.toString()));
    command.addAll(List.of(arguments));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes());
    assertThat(process.waitFor()).as(output).isZero();
  }

  // --with-workloads

  private static final String NODE = "module.exports = { main: () => 'ok' };\n";

  /** a: no scaleConfig; b: Function YAML with min 1, max 3; c: Function YAML with min = max = 2. */
  private void writeThreeInlineFunctions() throws IOException {
    write("functions/a/handler.js", NODE);
    write("functions/a/package.json", "{}\n");
    write("functions/scaled.yaml", TestFunction.declared("b").scale(1, 3).toYaml()
        + TestFunction.declared("c").runtime(FunctionRuntime.PYTHON312)
            .code("def main(event, context):\n    return 'c'\n").scale(2, 2).toYaml());
  }

  private static List<JsonNode> items(CliRun run) throws IOException {
    List<JsonNode> items = new ArrayList<>();
    new ObjectMapper().readTree(run.out()).path("items").forEach(items::add);
    return items;
  }

  private static List<String> kindsAndNames(List<JsonNode> items) {
    return items.stream().map(i -> i.path("kind").asText() + " " + i.path("metadata").path("name").asText()).toList();
  }

  private static JsonNode find(List<JsonNode> items, String kind, String name) {
    return items.stream()
        .filter(i -> i.path("kind").asText().equals(kind) && i.path("metadata").path("name").asText().equals(name))
        .findFirst().orElseThrow(() -> new AssertionError("no " + kind + " " + name));
  }

  private static ContentKey keyOf(JsonNode function) {
    Function fn = new KubernetesSerialization().unmarshal(function.toString(), Function.class);
    return ContentKey.ofInline(fn, BuildSettings.defaults());
  }

  @Test
  void withWorkloadsEachFunctionIsFollowedByItsChildrenInApplyOrder() throws Exception {
    writeThreeInlineFunctions();

    // Offline, no registry says whether an install Job runs (RenderLayeredIT asks one).
    CliRun run = render(folder.toString(), "--with-workloads", "-o", "json", "--offline");

    assertThat(run.exitCode()).isZero();
    List<JsonNode> items = items(run);
    assertThat(kindsAndNames(items)).containsExactly(
        "Function a", "Deployment a", "Service a",
        "Function b", "Deployment b", "Service b", "HorizontalPodAutoscaler b",
        "Function c", "Deployment c", "Service c");
  }

  @Test
  void withWorkloadsABuildlessFunctionHasItsSourceConfigMapAndABaseImageDeploymentAndNoJob() throws Exception {
    writeThreeInlineFunctions();
    write("functions/d.yaml", TestFunction.declared("d").metadataAnnotation(Annotations.BUILD_MODE, "image")
        .toYaml());

    CliRun run = render(folder.toString(), "--with-workloads", "--build-mode", "buildless", "-o", "json",
        "--offline");

    assertThat(run.exitCode()).isZero();
    List<JsonNode> items = items(run);
    Function a = new KubernetesSerialization().unmarshal(find(items, "Function", "a").toString(), Function.class);
    String source = BuildlessSource.name(a, BuildlessSource.of(a, FunctionBuildPlan.ofInline(a,
        BuildSettings.defaults()), BuildSettings.defaults()).key());
    assertThat(kindsAndNames(items)).startsWith("Function a", "ConfigMap " + source, "Deployment a", "Service a")
        .noneMatch(k -> k.startsWith("Job "));
    JsonNode deployment = find(items, "Deployment", "a");
    assertThat(deployment.at("/spec/template/spec/containers/0/image").asText())
        .isEqualTo("docker.io/library/node:24-bookworm-slim");
    assertThat(deployment.at("/spec/template/spec/initContainers/0/name").asText()).isEqualTo("install");
    assertThat(find(items, "ConfigMap", source).at("/data/function.handler.js").asText()).isEqualTo(NODE);
    // The annotation wins over --build-mode: d runs an image from the registry, with no install at start.
    JsonNode d = find(items, "Deployment", "d");
    assertThat(d.at("/spec/template/spec/containers/0/image").asText()).startsWith("registry.local:5000/default/d:");
    assertThat(d.at("/spec/template/spec/initContainers").isMissingNode()).isTrue();
  }

  @Test
  void withWorkloadsADependencyCacheClaimIsMountedByTheInstallAsTheControllerWouldAndAfterNothingElse()
      throws Exception {
    writeThreeInlineFunctions();

    JsonNode deployment = find(items(render(folder.toString(), "--with-workloads", "--build-mode", "buildless",
        "--dependency-cache-claim", "gitfn-dependencies", "-o", "json")), "Deployment", "a");

    assertThat(deployment.at("/spec/template/spec/volumes").toString())
        .contains("{\"claimName\":\"gitfn-dependencies\"}");
    assertThat(render(folder.toString(), "--dependency-cache-claim", "gitfn-dependencies").err())
        .contains("--dependency-cache-claim applies with --with-workloads");
    assertThat(render(folder.toString(), "--with-workloads", "--dependency-cache-claim", "Not_A_Name").err())
        .contains("dependency cache claim `Not_A_Name` is not a PersistentVolumeClaim name");
  }

  @Test
  void withWorkloadsTheChildrenHaveANamespaceButNoOwnerReferenceOrUid() throws Exception {
    writeThreeInlineFunctions();

    List<JsonNode> items = items(render(folder.toString(), "--with-workloads", "-o", "json", "--offline"));

    List<JsonNode> children = items.stream().filter(i -> !i.path("kind").asText().equals("Function")).toList();
    assertThat(children).hasSize(7).allSatisfy(child -> {
      assertThat(child.at("/metadata/namespace").asText()).isEqualTo("default");
      assertThat(child.at("/metadata/ownerReferences").isMissingNode()).isTrue();
      assertThat(child.at("/metadata/labels").has("serverless.kyma-project.io/uuid")).isFalse();
    });
    // The Functions stay as declared: a FunctionRepository, not Git, places them.
    assertThat(find(items, "Function", "a").at("/metadata/namespace").isMissingNode()).isTrue();
  }

  @Test
  void registryAndNamespaceNameTheImage() throws Exception {
    writeThreeInlineFunctions();

    List<JsonNode> items = items(render(folder.toString(), "--with-workloads", "-o", "json", "--offline",
        "--registry", "registry.example.com/team/", "-n", "shop"));

    String image = "registry.example.com/team/shop/a:" + keyOf(find(items, "Function", "a")).tag();
    assertThat(find(items, "Deployment", "a").at("/spec/template/spec/containers/0/image").asText())
        .isEqualTo(image);
    assertThat(find(items, "Service", "a").at("/metadata/namespace").asText()).isEqualTo("shop");
  }

  @Test
  void aFunctionsOwnNamespaceWinsOverTheNamespaceOption() throws Exception {
    write("fn.yaml", TestFunction.declared("hello").inNamespace("team-a").code("module.exports = {};").toYaml());

    List<JsonNode> items = items(render(folder.toString(), "--with-workloads", "-n", "shop", "-o", "json",
        "--offline"));

    assertThat(find(items, "Deployment", "hello").at("/metadata/namespace").asText()).isEqualTo("team-a");
    assertThat(find(items, "Deployment", "hello").at("/spec/template/spec/containers/0/image").asText())
        .startsWith("registry.local:5000/team-a/hello:");
  }

  @Test
  void withWorkloadsYamlIsOneDocumentPerObjectInTheSameOrder() throws Exception {
    writeThreeInlineFunctions();

    CliRun yaml = render(folder.toString(), "--with-workloads", "--offline");
    CliRun json = render(folder.toString(), "--with-workloads", "-o", "json", "--offline");

    assertThat(yaml.exitCode()).isZero();
    assertThat(yaml.out()).startsWith("---\n");
    List<String> documents = List.of(yaml.out().substring(4).split("(?m)^---\n"));
    assertThat(documents).hasSize(10);
    assertThat(documents.stream().map(d -> d.lines().filter(l -> l.startsWith("kind: ")).findFirst().orElse(""))
        .toList())
        .containsExactlyElementsOf(items(json).stream().map(i -> "kind: \"" + i.path("kind").asText() + "\"")
            .toList());
  }

  @Test
  void withoutTheFlagTheOutputIsTheFunctionsAlone() throws Exception {
    writeThreeInlineFunctions();
    KubernetesSerialization serialization = new KubernetesSerialization();
    String expected = new ManifestReader(ManifestOptions.defaults())
        .read(new FolderTree(folder), "", List.of()).functions().stream()
        .map(serialization::asYaml)
        .map(yaml -> yaml.startsWith("---") ? yaml : "---\n" + yaml)
        .collect(Collectors.joining());

    CliRun run = render(folder.toString());

    assertThat(run.exitCode()).isZero();
    assertThat(run.out()).isEqualTo(expected);
    assertThat(run.out()).doesNotContain("kind: \"ConfigMap\"", "kind: \"Job\"", "kind: \"Deployment\"",
        "kind: \"Service\"", "kind: \"HorizontalPodAutoscaler\"");
  }

  @Test
  void aGitSourcedFunctionRenderCannotResolveGetsItsServiceAndHpaAndNoticesSayingWhy() throws Exception {
    write("from-git.yaml", TestFunction.declared("orders").runtime(FunctionRuntime.NODEJS22)
        .gitRepository("https://github.com/kyma-project/examples.git", "main", "orders").scale(1, 4).toYaml());

    CliRun run = render(folder.toString(), "--with-workloads", "--offline", "-o", "json");

    assertThat(run.exitCode()).isZero();
    assertThat(kindsAndNames(items(run)))
        .containsExactly("Function orders", "Service orders", "HorizontalPodAutoscaler orders");
    assertThat(run.err()).isEqualTo("notice: Function default/orders has a Git source, which --offline does not"
        + " fetch\nnotice: so only the Service and HorizontalPodAutoscaler of Function default/orders are printed\n");
  }

  @Test
  void theDeploymentStartsWithTheReplicasAFreshClusterHolds() throws Exception {
    write("replicas.yaml", TestFunction.declared("fixed").code("x").replicas(3).toYaml()
        + TestFunction.declared("scaled").code("x").replicas(4).scale(2, 5).toYaml());

    List<JsonNode> items = items(render(folder.toString(), "--with-workloads", "-o", "json", "--offline"));

    assertThat(find(items, "Deployment", "fixed").at("/spec/replicas").asInt()).isEqualTo(3);
    // The sync sends no replicas an HPA drives; the CRD defaults them to 1 and the HPA scales up from there.
    assertThat(find(items, "Deployment", "scaled").at("/spec/replicas").asInt()).isEqualTo(1);
    assertThat(find(items, "HorizontalPodAutoscaler", "scaled").at("/spec/minReplicas").asInt()).isEqualTo(2);
    assertThat(find(items, "Function", "scaled").at("/spec/replicas").asInt()).isEqualTo(4);
  }

  @Test
  void aBuildContextOverTheConfigMapLimitIsRefusedLikeTheControllerRefusesIt() {
    // The manifest reader caps inline sources below the limit, so this spec only reaches the printer directly.
    Function big = TestFunction.inline().named("big").inNamespace("shop")
        .code("x".repeat((int) BuildContext.LIMIT)).build();
    Function small = TestFunction.inline().named("small").inNamespace("shop").build();
    RenderCommand command = new RenderCommand();
    command.withWorkloads = true;
    command.offline = true;
    command.output = RenderCommand.Format.yaml;
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();

    int exitCode = command.print(List.of(small, big), new PrintWriter(out), new PrintWriter(err, true));

    assertThat(exitCode).isEqualTo(RenderCommand.INVALID);
    assertThat(out.toString()).isEmpty();
    String refusal = err.toString().substring(err.toString().indexOf("the controller would refuse"));
    assertThat(refusal).startsWith(
        "the controller would refuse these Functions with InvalidFunctionSpec; nothing printed:\n"
            + "Function shop/big: the build context is ")
        .contains("over the ConfigMap limit of 1048576 bytes (1 MiB)")
        .doesNotContain("shop/small");
  }

  @Test
  void withTheLayeredBuilderOfflineNoJobIsPrintedForOnlyTheRegistryCanSayWhetherOneRuns() throws Exception {
    writeThreeInlineFunctions();

    CliRun run = render(folder.toString(), "--with-workloads", "-o", "json", "--builder", "layered", "--offline");
    List<JsonNode> layered = items(run);

    assertThat(run.exitCode()).isZero();
    assertThat(run.err()).contains("notice: whether Function default/a needs an install Job is not known, so none is"
        + " printed: --offline does not ask registry registry.local:5000");
    assertThat(layered).noneMatch(item -> item.path("kind").asText().equals("Job"))
        .noneMatch(item -> item.path("kind").asText().equals("ConfigMap"));
    String tag = keyOf(find(layered, "Function", "a")).tag();
    assertThat(find(layered, "Deployment", "a").at("/spec/template/spec/containers/0/image").asText())
        .isEqualTo("registry.local:5000/default/a:" + tag);
  }

  @Test
  void aRegistryPairThatFailedIsNotAskedAgainForTheNextFunctions() {
    AtomicInteger asked = new AtomicInteger();
    FunctionChildren.DependencyImages registry = RenderCommand.askingEachRegistryPairOnceAfterAFailure(request -> {
      asked.incrementAndGet();
      throw new RegistryFailure("looking for " + request.base() + ": Connect timed out", null);
    });

    for (String name : List.of("a", "b", "c")) {
      assertThatThrownBy(() -> registry.find(request(name, "docker.io/library/node:22"))).isInstanceOf(
          RegistryFailure.class).hasMessageContaining("Connect timed out");
    }
    assertThat(asked).as("one wait for the pair, not one per Function").hasValue(1);
    assertThatThrownBy(() -> registry.find(request("d", "mirror.example.com/node:22")))
        .hasMessageContaining("Connect timed out").hasMessageNotContaining("not asked again");
    assertThat(asked).as("another pair is asked").hasValue(2);
  }

  private static FunctionImages.Request request(String name, String base) {
    return new FunctionImages.Request(FunctionRuntime.NODEJS22, ImageName.parse(base), "digest",
        "module.exports = {};", "{}", null, "", ImageName.parse("registry.local:5000/default/gitfn-dependencies:latest"),
        ImageName.parse("registry.local:5000/default/" + name + ":1"));
  }

  @Test
  void aBuilderThatIsNoneOfThemIsAUsageError() throws Exception {
    writeThreeInlineFunctions();

    CliRun run = render(folder.toString(), "--with-workloads", "--builder", "docker");

    assertThat(run.exitCode()).isEqualTo(CommandLine.ExitCode.USAGE);
    assertThat(run.err()).contains("builder `docker` is not one of layered");
  }

  @Test
  void aBuilderThatWasRemovedSaysSoAndWhatToDo() throws Exception {
    writeThreeInlineFunctions();

    CliRun run = render(folder.toString(), "--with-workloads", "--builder", "buildah");

    assertThat(run.exitCode()).isEqualTo(CommandLine.ExitCode.USAGE);
    assertThat(run.err()).contains("builder `buildah` was removed: gitfn builds every image with the layered"
        + " builder").contains("docs/upgrading.md");
  }

  @Test
  void registryAndBuilderNeedWithWorkloads() throws Exception {
    write("functions/a/handler.js", NODE);
    write("functions/a/package.json", "{}\n");

    CliRun registry = render(folder.toString(), "--registry", "registry.example.com");
    CliRun builder = render(folder.toString(), "--builder", "layered");

    assertThat(registry.exitCode()).isEqualTo(CommandLine.ExitCode.USAGE);
    assertThat(registry.out()).isEmpty();
    assertThat(registry.err()).contains("--registry applies with --with-workloads");
    assertThat(builder.exitCode()).isEqualTo(CommandLine.ExitCode.USAGE);
    assertThat(builder.err()).contains("--builder applies with --with-workloads");
  }

  @Test
  void theGitopsExamplesRenderWithWorkloads() throws Exception {
    Path examples = Path.of(System.getProperty("gitfn.project.dir", "."), "gitops-examples");

    CliRun run = render(examples.toString(), "--with-workloads", "--offline", "-o", "json");

    assertThat(run.exitCode()).isZero();
    assertThat(run.err()).contains("notice: Function default/orders-from-git has a Git source");
    List<String> kinds = kindsAndNames(items(run));
    assertThat(kinds).contains("Deployment hello", "HorizontalPodAutoscaler hello", "Deployment greeter",
        "Deployment py-hello", "Deployment orders", "Service orders-from-git", "ConfigMap greeting-settings",
        "Deployment greeting", "Service greeting");
    assertThat(kinds).doesNotContain("Deployment orders-from-git", "HorizontalPodAutoscaler greeter");
  }
}
