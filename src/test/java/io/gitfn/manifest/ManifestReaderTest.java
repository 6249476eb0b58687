package io.gitfn.manifest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.Quantity;
import io.gitfn.api.Annotations;
import io.gitfn.api.function.AuthType;
import io.gitfn.api.function.Function;
import io.gitfn.api.function.FunctionRuntime;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** How a revision's folder becomes Functions: the three formats, ignore files, symlinks and the whole-revision rule. */
class ManifestReaderTest {

  static final String HEADER = """
      apiVersion: serverless.kyma-project.io/v1alpha2
      kind: Function
      metadata:
        name: %s
      spec:
      """;

  /** A Function document: line 6 is {@code runtime}, lines 7-9 the inline source, extra spec lines from 10. */
  static String function(String name, String... extraSpecLines) {
    StringBuilder text = new StringBuilder(HEADER.formatted(name));
    text.append("  runtime: nodejs22\n  source:\n    inline:\n      source: module.exports = {}\n");
    for (String line : extraSpecLines) {
      text.append("  ").append(line).append('\n');
    }
    return text.toString();
  }

  /** A Function document whose spec is exactly {@code specLines}, from line 6. */
  static String functionWithSpec(String name, String... specLines) {
    StringBuilder text = new StringBuilder(HEADER.formatted(name));
    for (String line : specLines) {
      text.append("  ").append(line).append('\n');
    }
    return text.toString();
  }

  static Manifest read(SourceTree tree) throws Exception {
    return read(tree, "functions", List.of());
  }

  static Manifest read(SourceTree tree, String path, List<String> ignore) throws Exception {
    return new ManifestReader(ManifestOptions.defaults()).read(tree, path, ignore);
  }

  static List<String> errors(SourceTree tree) {
    return errors(tree, ManifestOptions.defaults());
  }

  static List<String> errors(SourceTree tree, ManifestOptions options) {
    try {
      new ManifestReader(options).read(tree, "functions", List.of());
    } catch (InvalidManifestException e) {
      return e.errors().stream().map(ManifestError::toString).toList();
    } catch (IOException e) {
      throw new AssertionError(e);
    }
    throw new AssertionError("the revision was accepted");
  }

  static List<String> names(Manifest manifest) {
    return manifest.functions().stream().map(f -> f.getMetadata().getName()).toList();
  }

  static Function only(Manifest manifest) {
    assertThat(manifest.functions()).hasSize(1);
    return manifest.functions().get(0);
  }

  // --- Format 1: Function YAML documents ---

  @Test
  void aFunctionDocumentIsReadAsWrittenAndAnnotatedWithItsFile() throws Exception {
    Function fn = only(read(FakeTree.of("functions/hello.yaml", function("hello", "replicas: 2"))));

    assertThat(fn.getMetadata().getName()).isEqualTo("hello");
    assertThat(fn.getSpec().getRuntime()).isEqualTo(FunctionRuntime.NODEJS22);
    assertThat(fn.getSpec().getSource().getInline().getSource()).isEqualTo("module.exports = {}");
    assertThat(fn.getSpec().getReplicas()).isEqualTo(2);
    assertThat(fn.getMetadata().getAnnotations()).containsEntry(Annotations.SOURCE_PATH, "functions/hello.yaml");
  }

  @Test
  void aFileMayHoldManyDocumentsAndOtherKindsAreNoticedAndIgnored() throws Exception {
    String text = function("b") + "---\napiVersion: v1\nkind: Secret\nmetadata:\n  name: s\n---\n"
        + function("a") + "---\n";
    Manifest manifest = read(FakeTree.of("functions/all.yml", text));

    assertThat(names(manifest)).containsExactly("a", "b");
    assertThat(manifest.notices()).extracting(ManifestNotice::toString)
        .containsExactly("functions/all.yml:12: a Secret (v1) in plain text; ignored: a Secret in Git must be"
            + " encrypted with SOPS (see docs/security.md#encrypted-secrets)");
  }

  @Test
  void filesOutsideThePathAndFilesOfOtherTypesAreNotRead() throws Exception {
    Manifest manifest = read(FakeTree.of(
        "functions/a.yaml", function("a"),
        "functions/README.md", "# not a Function",
        "other/b.yaml", function("b")));

    assertThat(names(manifest)).containsExactly("a");
  }

  @Test
  void statusInAnExportedFunctionIsDropped() throws Exception {
    Function fn = only(read(FakeTree.of("functions/git-with-auth.yaml", fixture("git-with-auth.yaml"))));

    assertThat(fn.getStatus()).isNull();
    assertThat(fn.getSpec().getSource().getGitRepository().getAuth().getType()).isEqualTo(AuthType.BASIC);
  }

  @Test
  void theProjectsKymaStyleFixturesReadUnchanged() throws Exception {
    Manifest manifest = read(FakeTree.of(
        "functions/inline.yaml", fixture("inline-nodejs22.yaml"),
        "functions/git.yaml", fixture("git-with-auth.yaml")));

    assertThat(names(manifest)).containsExactly("orders", "payments");
    Function orders = manifest.functions().get(0);
    assertThat(orders.getSpec().getEnv()).hasSize(3);
    assertThat(orders.getSpec().getResourceConfiguration().getFunction().getResources().getLimits())
        .containsEntry("memory", new Quantity("128Mi"));
  }

  // Kyma's tutorial "Create a Function from Git repository sources", as published.
  @Test
  void kymasGitFunctionTutorialReadsUnchanged() throws Exception {
    String kyma = """
        apiVersion: serverless.kyma-project.io/v1alpha2
        kind: Function
        metadata:
          name: git-function
        spec:
          runtime: nodejs20
          source:
            gitRepository:
              url: https://github.com/kyma-project/examples.git
              baseDir: orders-service/function
              reference: main
        """;
    Function fn = only(read(FakeTree.of("functions/git-function.yaml", kyma)));

    assertThat(fn.getSpec().getSource().getGitRepository().getBaseDir()).isEqualTo("orders-service/function");
  }

  @Test
  void aDeprecatedRuntimeReadsWithANoticeAtItsLine() throws Exception {
    Manifest manifest = read(FakeTree.of("functions/old.yaml", """
        apiVersion: serverless.kyma-project.io/v1alpha2
        kind: Function
        metadata:
          name: old
        spec:
          runtime: nodejs20
          source:
            inline:
              source: |
                module.exports = { main: () => "hi" };
        """));

    assertThat(manifest.functions()).hasSize(1);
    assertThat(manifest.notices()).extracting(ManifestNotice::toString).containsExactly(
        "functions/old.yaml:6: spec.runtime: nodejs20 is deprecated by Kyma and will be removed; it still builds"
            + " and runs. Move to nodejs24.");
  }

  @Test
  void kymasDefaultRuntimeNodejs24Reads() throws Exception {
    Function fn = only(read(FakeTree.of("functions/new.yaml", """
        apiVersion: serverless.kyma-project.io/v1alpha2
        kind: Function
        metadata:
          name: new
        spec:
          runtime: nodejs24
          source:
            inline:
              source: |
                module.exports = { main: () => "hi" };
        """)));

    assertThat(fn.getSpec().getRuntime()).isEqualTo(FunctionRuntime.NODEJS24);
  }

  // Kyma's Function CR reference sample breaks Kyma's own rules: a runtime gone since Serverless 1.x, status
  // indented under spec, and a Secret name in capitals. gitfn says so instead of applying it.
  @Test
  void kymasFunctionReferenceSampleIsRejectedForWhatKymaWouldRejectToo() {
    String kyma = """
        apiVersion: serverless.kyma-project.io/v1alpha2
        kind: Function
        metadata:
          name: my-test-function
          namespace: default
          labels:
            app: my-test-function
        spec:
          runtime: nodejs16
          source:
            inline:
              dependencies: |
                {
                  "name": "hellowithdeps",
                  "version": "0.0.1",
                  "dependencies": {}
                }
              source: |
                module.exports = {
                  main: function(event, context) {
                    return 'Hello ' + process.env.PERSON_NAME;
                  }
                }
          scaleConfig:
            minReplicas: 3
            maxReplicas: 3
          env:
            - name: PERSON_NAME
              value: "John"
          secretMounts:
            - secretName: SECRET_NAME
              mountPath: /secret/mount/path
          status:
            conditions: []
        """;
    assertThat(errors(FakeTree.of("functions/sample.yaml", kyma))).containsExactly(
        "functions/sample.yaml:9: spec.runtime: runtime `nodejs16` is not one of nodejs20, nodejs22, nodejs24, python312",
        "functions/sample.yaml:31: spec.secretMounts[0].secretName: `SECRET_NAME` is not a Secret name (a DNS-1123"
            + " subdomain: lower-case letters, digits, '-' and '.', at most 253 characters)",
        "functions/sample.yaml:33: spec.status: unknown field `status`; a typo? Known here: annotations,"
            + " containerSecurityContext, env, labels, podSecurityContext, replicas, resourceConfiguration, runtime,"
            + " runtimeImageOverride, scaleConfig, secretMounts, source, template");
  }

  // --- Format 2: Kyma CLI folders ---

  @Test
  void aKymaCliFolderBecomesAnInlineFunctionWithItsFilesAndResources() throws Exception {
    for (String key : List.of("resource", "resources")) {
      Function fn = only(read(FakeTree.of(
          "functions/orders/config.yaml", """
              name: orders
              namespace: shop
              runtime: nodejs20
              labels:
                team: checkout
              runtimeLabels:
                tier: backend
              source:
                sourceType: inline
              %s:
                requests: {cpu: 50m, memory: 64Mi}
                limits: {cpu: 100m, memory: 128Mi}
              env:
                - name: LOG_LEVEL
                  value: debug
              schemaVersion: v1
              """.formatted(key),
          "functions/orders/handler.js", "module.exports = { main: () => 'orders' };\n",
          "functions/orders/package.json", "{ \"name\": \"orders\" }\n")));

      assertThat(fn.getMetadata().getName()).isEqualTo("orders");
      assertThat(fn.getMetadata().getNamespace()).isEqualTo("shop");
      assertThat(fn.getMetadata().getLabels())
          .containsEntry("team", "checkout").containsEntry("app.kubernetes.io/name", "orders");
      assertThat(fn.getMetadata().getAnnotations()).containsEntry(Annotations.SOURCE_PATH, "functions/orders");
      assertThat(fn.getSpec().getRuntime()).isEqualTo(FunctionRuntime.NODEJS20);
      assertThat(fn.getSpec().getLabels()).containsEntry("tier", "backend");
      assertThat(fn.getSpec().getSource().getInline().getSource()).contains("'orders'");
      assertThat(fn.getSpec().getSource().getInline().getDependencies()).contains("\"orders\"");
      assertThat(fn.getSpec().getResourceConfiguration().getFunction().getResources().getRequests())
          .containsEntry("cpu", new Quantity("50m"));
      assertThat(fn.getSpec().getEnv()).extracting(e -> e.getName()).containsExactly("LOG_LEVEL");
    }
  }

  @Test
  void aKymaCliFolderReadsItsCodeFromSourcePathAndCustomFileNames() throws Exception {
    Manifest manifest = read(FakeTree.of(
        "functions/payments/config.yaml", """
            name: payments
            runtime: python312
            source:
              sourceType: inline
              sourcePath: src
              sourceHandlerName: main.py
              depsHandlerName: deps.txt
            """,
        "functions/payments/src/main.py", "def main(event, context):\n    return 'paid'\n",
        "functions/payments/src/deps.txt", "requests==2.32.3\n",
        "functions/payments/src/handler.py", "# a helper, not another Function\n",
        "functions/payments/src/requirements.txt", ""));

    Function fn = only(manifest);
    assertThat(fn.getSpec().getSource().getInline().getSource()).contains("'paid'");
    assertThat(fn.getSpec().getSource().getInline().getDependencies()).isEqualTo("requests==2.32.3\n");
  }

  @Test
  void aGitSourceInConfigYamlBecomesAGitRepositoryFunction() throws Exception {
    Function fn = only(read(FakeTree.of("functions/remote/config.yaml", """
        name: remote
        runtime: nodejs22
        source:
          sourceType: git
          url: https://github.com/kyma-project/examples.git
          repository: examples
          reference: main
          baseDir: orders-service/function
          credentialsType: basic
          credentialsSecretName: git-creds
        """)));

    var git = fn.getSpec().getSource().getGitRepository();
    assertThat(git.getUrl()).isEqualTo("https://github.com/kyma-project/examples.git");
    assertThat(git.getReference()).isEqualTo("main");
    assertThat(git.getBaseDir()).isEqualTo("orders-service/function");
    assertThat(git.getAuth().getType()).isEqualTo(AuthType.BASIC);
    assertThat(git.getAuth().getSecretName()).isEqualTo("git-creds");
    assertThat(fn.getSpec().getSource().getInline()).isNull();
  }

  @Test
  void subscriptionsInConfigYamlAreNoticedNotApplied() throws Exception {
    Manifest manifest = read(FakeTree.of(
        "functions/orders/config.yaml", """
            name: orders
            runtime: nodejs22
            subscriptions:
              - name: orders
            """,
        "functions/orders/handler.js", "x",
        "functions/orders/package.json", "{}"));

    assertThat(manifest.notices()).extracting(ManifestNotice::toString).containsExactly(
        "functions/orders/config.yaml:3: subscriptions are not applied by gitfn, only the Function; declare them as"
            + " resources of their own");
  }

  // --- Format 3: plain function folders ---

  @Test
  void plainFoldersBecomeInlineFunctionsNamedAfterTheFolder() throws Exception {
    Manifest manifest = read(FakeTree.of(
        "functions/greeter/handler.js", "module.exports = { main: () => 'hi' };\n",
        "functions/greeter/package.json", "{}\n",
        "functions/py-hello/handler.py", "def main(event, context):\n    return 'hi'\n",
        "functions/py-hello/requirements.txt", ""));

    assertThat(names(manifest)).containsExactly("greeter", "py-hello");
    assertThat(manifest.functions()).extracting(f -> f.getSpec().getRuntime())
        .as("Kyma's default Node.js runtime for handler.js").containsExactly(FunctionRuntime.NODEJS24,
            FunctionRuntime.PYTHON312);
    assertThat(manifest.functions().get(1).getMetadata().getAnnotations())
        .containsEntry(Annotations.SOURCE_PATH, "functions/py-hello");
  }

  @Test
  void thePathItselfMayBeAFunctionFolder() throws Exception {
    Manifest manifest = read(
        FakeTree.of("functions/greeter/handler.js", "x", "functions/greeter/package.json", "{}"),
        "./functions/greeter/", List.of());

    assertThat(names(manifest)).containsExactly("greeter");
  }

  // --- Ignoring ---

  @Test
  void gitfnignoreFilesAndSpecIgnoreExcludePaths() throws Exception {
    Manifest manifest = read(
        FakeTree.of(
            "functions/.gitfnignore", "drafts/\n*.tmpl.yaml\n",
            "functions/a.yaml", function("a"),
            "functions/b.tmpl.yaml", "not: [valid",
            "functions/drafts/c.yaml", "not: [valid",
            "functions/team/.gitfnignore", "/old.yaml\n",
            "functions/team/old.yaml", function("old"),
            "functions/team/new.yaml", function("new"),
            "functions/team/broken/handler.js", "x"),
        "functions",
        List.of("broken/"));

    assertThat(names(manifest)).containsExactly("a", "new");
  }

  @Test
  void anIgnoreLineThatIsNotAPatternMakesTheRevisionInvalidNamingFileAndLine() throws Exception {
    FakeTree tree = FakeTree.of(
        "functions/.gitfnignore", "drafts/\n[z-a]*.yaml\n",
        "functions/a.yaml", function("a"));

    assertThat(errors(tree)).containsExactly(
        "functions/.gitfnignore:2: ignore pattern `[z-a]*.yaml`: the range z-a in [z-a] runs backwards");
    assertThatThrownBy(() -> read(FakeTree.of("functions/a.yaml", function("a")), "functions", List.of("ok", "[9-0]")))
        .isInstanceOfSatisfying(InvalidManifestException.class, e -> assertThat(e.errors())
            .extracting(ManifestError::toString)
            .containsExactly("spec.ignore:2: ignore pattern `[9-0]`: the range 9-0 in [9-0] runs backwards"));
  }

  @Test
  void aPathWithMoreFilesThanTheLimitIsInvalidBeforeAnyIsRead() {
    FakeTree tree = new FakeTree();
    for (int i = 0; i < 6; i++) {
      tree.file("functions/f" + i + ".yaml", "not: [valid");
    }

    assertThat(errors(tree, ManifestOptions.defaults().withMaxFiles(5))).containsExactly(
        "functions: holds more than 5 files, the most gitfn reads in one revision; point the path at a smaller"
            + " folder");
  }

  @Test
  void aFileOfMoreDocumentsThanAFunctionFileNeedsIsInvalid() {
    String many = ("---\napiVersion: v1\nkind: Service\nmetadata:\n  name: x\n").repeat(YamlFile.MAX_DOCUMENTS + 1);

    assertThat(errors(FakeTree.of("functions/many.yaml", many))).anySatisfy(e -> assertThat(e)
        .startsWith("functions/many.yaml:").contains("has more than " + YamlFile.MAX_DOCUMENTS + " YAML documents"));
  }

  @Test
  void deepNestingIsInvalidBeforeItIsBuilt() {
    String deep = "a: " + "[".repeat(1000) + "]".repeat(1000) + "\n";

    assertThat(errors(FakeTree.of("functions/deep.yaml", deep))).singleElement().satisfies(e -> assertThat(e)
        .startsWith("functions/deep.yaml").contains("is not valid YAML"));
  }

  @Test
  void envValuesAndAnnotationsHaveTheSizesKubernetesAndFunctionsNeed() {
    String big = function("big", "env:\n    - name: BLOB\n      value: " + "x".repeat(40 * 1024))
        .replace("metadata:\n", "metadata:\n  annotations:\n    note: " + "y".repeat(300 * 1024) + "\n");

    assertThat(errors(FakeTree.of("functions/big.yaml", big))).anySatisfy(e -> assertThat(e)
        .contains("spec.env[0].value: is 40960 bytes, more than the 32768 an env value may have"))
        .anySatisfy(e -> assertThat(e).contains("metadata.annotations: are").contains("more than the 262144"));
  }

  @Test
  void aNamespaceThatIsNoNamespaceNameIsInvalidBeforeItNamesAnything() {
    String text = function("escape").replace("  name: escape\n", "  name: escape\n  namespace: ../../home\n");

    assertThat(errors(FakeTree.of("functions/escape.yaml", text))).singleElement().satisfies(e -> assertThat(e)
        .contains("metadata.namespace: `../../home` is not a namespace name"));
  }

  @Test
  void aRuntimeImageOverrideThatIsNotAnImageReferenceIsInvalid() {
    String text = function("sneaky", "runtimeImageOverride: \"node:22\\nCOPY registry-config/.npmrc /leak\"");

    assertThat(errors(FakeTree.of("functions/sneaky.yaml", text))).singleElement().satisfies(e -> assertThat(e)
        .contains("spec.runtimeImageOverride: is not an image reference"));
  }

  @Test
  void aFunctionLargerThanAnObjectMayBeIsInvalid() {
    StringBuilder env = new StringBuilder("env:");
    for (int i = 0; i < 40; i++) {
      env.append("\n    - name: V").append(i).append("\n      value: ").append("z".repeat(30 * 1024));
    }

    assertThat(errors(FakeTree.of("functions/huge.yaml", function("huge", env.toString())))).anySatisfy(e ->
        assertThat(e).contains("metadata.name: the Function is").contains("more than the 1048576 a Function may be"));
  }

  @Test
  void aRevisionReadsAtMostItsBudgetOfBytesAndDeclaresAtMostItsFunctions() {
    FakeTree tree = new FakeTree();
    for (int i = 0; i < 4; i++) {
      tree.file("functions/f" + i + ".yaml", function("f" + i));
    }

    assertThat(errors(tree, ManifestOptions.defaults().withMaxReadBytes(300))).anySatisfy(e -> assertThat(e)
        .startsWith("functions: holds more than 300 bytes of files gitfn reads"));
    assertThat(errors(tree, ManifestOptions.defaults().withMaxFunctions(3))).containsExactly(
        "functions: declares 4 Functions, more than the 3 one revision may declare; split them over several"
            + " FunctionRepositories");
  }

  // --- Symlinks and paths ---

  @Test
  void aSymlinkInsideThePathIsFollowed() throws Exception {
    Manifest manifest = read(new FakeTree()
        .file("functions/shared/handler.js", "module.exports = {};")
        .file("functions/shared/package.json", "{}")
        .file("functions/copy/package.json", "{}")
        .symlink("functions/copy/handler.js", "../shared/handler.js"));

    assertThat(names(manifest)).containsExactly("copy", "shared");
    assertThat(manifest.functions().get(0).getSpec().getSource().getInline().getSource())
        .isEqualTo("module.exports = {};");
  }

  @Test
  void aPathThatLeavesTheRepositoryIsRejected() {
    assertThatThrownBy(() -> read(FakeTree.of("a.yaml", function("a")), "../elsewhere", List.of()))
        .isInstanceOf(InvalidManifestException.class)
        .hasMessage("../elsewhere: path leaves the repository through `..`; give a folder inside it");
  }

  // --- The whole revision ---

  @Test
  void oneInvalidFileRejectsTheRevisionWithEveryErrorAtOnce() {
    assertThatThrownBy(() -> read(FakeTree.of(
            "functions/a-good.yaml", function("good"),
            "functions/b.yaml", function("b", "replicas: -1"),
            "functions/c.yaml", function("c", "scaleConfig: {minReplicas: 0, maxReplicas: 2}"))))
        .isInstanceOfSatisfying(InvalidManifestException.class, e -> assertThat(e.errors()).hasSize(2))
        .hasMessage("functions/b.yaml:10: spec.replicas: is -1; it must be 0 or more\n"
            + "functions/c.yaml:10: spec.scaleConfig.minReplicas: is 0; it must be 1 or more");
  }

  @Test
  void aYamlAliasBombIsRejectedWithoutExpandingIt() {
    // 25 levels of doubling aliases: 600 bytes that would expand to hundreds of millions of nodes.
    StringBuilder bomb = new StringBuilder("l0: &l0 [x, x]\n");
    for (int i = 1; i < 25; i++) {
      bomb.append("l").append(i).append(": &l").append(i).append(" [*l").append(i - 1).append(", *l").append(i - 1).append("]\n");
    }

    List<String> errors = errors(FakeTree.of("functions/bomb.yaml", bomb.toString()));

    assertThat(errors).singleElement().asString().startsWith("functions/bomb.yaml").contains("aliases");
  }

  @Test
  void twoFunctionsWithOneNameAreRejectedNamingBothFiles() {
    assertThat(errors(FakeTree.of(
            "functions/a.yaml", function("hello"),
            "functions/hello/handler.js", "x",
            "functions/hello/package.json", "{}")))
        .containsExactly("functions/a.yaml:4: metadata.name: Function `hello` is also defined in"
            + " functions/hello; Function names must be unique");
  }

  @Test
  void inlineCodeOverTheSizeLimitIsRejected() {
    assertThat(errors(
            FakeTree.of("functions/big/handler.js", "x".repeat(900), "functions/big/package.json", "{}"),
            new ManifestOptions(512)))
        .containsExactly("functions/big/handler.js: spec.source.inline.source: source and dependencies are 902"
            + " bytes, over the limit of 512 bytes (they go into one ConfigMap, at most 1 MiB); make them smaller"
            + " or move the code to a gitRepository source");
  }

  static String fixture(String name) throws IOException {
    try (InputStream in = ManifestReaderTest.class.getResourceAsStream("/io/gitfn/api/function/" + name)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }
}
