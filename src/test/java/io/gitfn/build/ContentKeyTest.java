package io.gitfn.build;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gitfn.api.function.Function;
import io.gitfn.api.function.FunctionRuntime;
import io.gitfn.api.function.TestFunction;
import java.util.HashMap;
import java.util.Map;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

class ContentKeyTest {

  private static final BuildSettings SETTINGS = BuildSettings.defaults();
  private static final String TREE = "4b825dc642cb6eb9a060e54bf8d69288fbad4904";

  private static ContentKey inlineKey(UnaryOperator<TestFunction> change) {
    return ContentKey.ofInline(change.apply(TestFunction.inline()).build(), SETTINGS);
  }

  static Stream<Arguments> changesOutsideTheImage() {
    return Stream.<Arguments>of(
        Arguments.of("another name", (UnaryOperator<TestFunction>) f -> f.named("payments")),
        Arguments.of("another namespace", (UnaryOperator<TestFunction>) f -> f.inNamespace("other")),
        Arguments.of("another UID (a recreated Function)", (UnaryOperator<TestFunction>) f -> f.uid("another")),
        Arguments.of("env", (UnaryOperator<TestFunction>) f -> f.env("GREETING", "hi")),
        Arguments.of("replicas", (UnaryOperator<TestFunction>) f -> f.replicas(3)),
        Arguments.of("scaleConfig", (UnaryOperator<TestFunction>) f -> f.scale(1, 5)),
        Arguments.of("Pod labels", (UnaryOperator<TestFunction>) f -> f.label("team", "a")),
        Arguments.of("metadata labels", (UnaryOperator<TestFunction>) f -> f.metadataLabel("team", "a")),
        Arguments.of("annotations", (UnaryOperator<TestFunction>) f -> f.annotation("a", "b")),
        Arguments.of("resources", (UnaryOperator<TestFunction>) f -> f.profile("XL")),
        Arguments.of("build resources", (UnaryOperator<TestFunction>) f -> f.buildProfile("fast")),
        Arguments.of("secret mounts", (UnaryOperator<TestFunction>) f -> f.secretMount("db", "/db")),
        Arguments.of("blank Node.js dependencies, which mean {}",
            (UnaryOperator<TestFunction>) f -> f.dependencies("  ")),
        Arguments.of("Node.js dependencies {}", (UnaryOperator<TestFunction>) f -> f.dependencies("{}")));
  }

  @ParameterizedTest(name = "{0} keeps the key")
  @MethodSource("changesOutsideTheImage")
  void changesOutsideTheImageKeepTheKey(String change, UnaryOperator<TestFunction> apply) {
    assertThat(inlineKey(apply)).isEqualTo(inlineKey(f -> f));
  }

  static Stream<Arguments> changesToTheImage() {
    return Stream.<Arguments>of(
        Arguments.of("the source", (UnaryOperator<TestFunction>) f -> f.code("module.exports = {};")),
        Arguments.of("the dependencies",
            (UnaryOperator<TestFunction>) f -> f.dependencies("{\"dependencies\":{\"lodash\":\"4\"}}")),
        Arguments.of("the runtime", (UnaryOperator<TestFunction>) f -> f.runtime(FunctionRuntime.NODEJS20)),
        Arguments.of("a runtimeImageOverride",
            (UnaryOperator<TestFunction>) f -> f.runtimeImageOverride("registry.local:5000/node:22-custom")));
  }

  @ParameterizedTest(name = "{0} changes the key")
  @MethodSource("changesToTheImage")
  void changesToTheImageChangeTheKey(String change, UnaryOperator<TestFunction> apply) {
    assertThat(inlineKey(apply)).isNotEqualTo(inlineKey(f -> f));
  }

  @Test
  void anotherDefaultBaseImageChangesTheKey() {
    Function fn = TestFunction.inline().build();
    BuildSettings newerBase = SETTINGS.withBaseImage(FunctionRuntime.NODEJS22, "example.com/node22:2");

    assertThat(ContentKey.ofInline(fn, newerBase)).isNotEqualTo(ContentKey.ofInline(fn, SETTINGS));
  }

  @Test
  void anOverrideEqualToTheDefaultBaseImageIsTheSameImage() {
    Function overridden = TestFunction.inline()
        .runtimeImageOverride(SETTINGS.baseImage(FunctionRuntime.NODEJS22)).build();

    assertThat(ContentKey.ofInline(overridden, SETTINGS)).isEqualTo(inlineKey(f -> f));
  }

  @Test
  void aChangeToTheRuntimeServerChangesTheKeysOfItsLanguageOnly() {
    Map<String, String> files = new HashMap<>(SETTINGS.runtimes().nodejs().files());
    files.put("server.mjs", files.get("server.mjs") + "\n// a fix\n");
    BuildSettings newerRuntime = SETTINGS.withRuntime(FunctionRuntime.NODEJS22, new RuntimeSource(files));
    Function node = TestFunction.fromGit("f").build();
    Function python = TestFunction.fromGit("f").runtime(FunctionRuntime.PYTHON312).build();

    assertThat(ContentKey.ofInline(TestFunction.inline().build(), newerRuntime)).isNotEqualTo(inlineKey(f -> f));
    assertThat(ContentKey.ofGitTree(node, TREE, newerRuntime)).isNotEqualTo(ContentKey.ofGitTree(node, TREE, SETTINGS));
    assertThat(ContentKey.ofGitTree(python, TREE, newerRuntime))
        .isEqualTo(ContentKey.ofGitTree(python, TREE, SETTINGS));
  }

  @Test
  void theKeyCoversTheRuntimeDigestAndTheTemplateVersion() {
    // Pins the key material: an unnoticed change to what is hashed would silently rebuild, or not rebuild, images.
    java.security.MessageDigest sha256 = ContentKey.sha256();
    for (String field : new String[] {"gitfn-content-key", Integer.toString(ContentKey.TEMPLATE_VERSION),
        "nodejs22", SETTINGS.runtimes().nodejs().digest(), SETTINGS.baseImage(FunctionRuntime.NODEJS22), "git-tree",
        TREE}) {
      ContentKey.field(sha256, field);
    }

    assertThat(ContentKey.ofGitTree(TestFunction.fromGit("f").build(), TREE, SETTINGS).value())
        .isEqualTo(java.util.HexFormat.of().formatHex(sha256.digest()));
  }

  @Test
  void registryAndBuilderDoNotChangeTheKey() {
    Function fn = TestFunction.inline().build();

    assertThat(ContentKey.ofInline(fn, SETTINGS.withRegistry("ghcr.io/shop")))
        .isEqualTo(ContentKey.ofInline(fn, SETTINGS));
  }

  @Test
  void pythonBlankDependenciesAreKeptAsTheyAre() {
    UnaryOperator<TestFunction> python = f -> f.runtime(FunctionRuntime.PYTHON312).code("def main(e, c): pass");

    assertThat(inlineKey(f -> python.apply(f).dependencies(" ")))
        .isNotEqualTo(inlineKey(f -> python.apply(f).dependencies("")));
  }

  @Test
  void aGitFunctionIsKeyedByTheTreeOfItsBaseDir() {
    Function fn = TestFunction.fromGit("functions/orders").build();

    assertThat(ContentKey.ofGitTree(fn, TREE, SETTINGS)).isEqualTo(ContentKey.ofGitTree(fn, TREE, SETTINGS));
    assertThat(ContentKey.ofGitTree(fn, "0".repeat(40), SETTINGS))
        .isNotEqualTo(ContentKey.ofGitTree(fn, TREE, SETTINGS));
  }

  @Test
  void theSameTreeInAnotherFunctionOrDirectoryHasTheSameKey() {
    Function orders = TestFunction.fromGit("functions/orders").build();
    Function copy = TestFunction.fromGit("functions/orders-copy").named("orders-copy").uid("x").build();

    assertThat(ContentKey.ofGitTree(copy, TREE, SETTINGS)).isEqualTo(ContentKey.ofGitTree(orders, TREE, SETTINGS));
  }

  @Test
  void aGitKeyDependsOnTheRuntimeToo() {
    Function node = TestFunction.fromGit("f").build();
    Function python = TestFunction.fromGit("f").runtime(FunctionRuntime.PYTHON312).build();

    assertThat(ContentKey.ofGitTree(python, TREE, SETTINGS)).isNotEqualTo(ContentKey.ofGitTree(node, TREE, SETTINGS));
  }

  @Test
  void theKeyIsHexSha256AndTheTagItsFirst32Digits() {
    ContentKey key = inlineKey(f -> f);

    assertThat(key.value()).matches("[0-9a-f]{64}");
    assertThat(key.tag()).hasSize(32).isEqualTo(key.value().substring(0, 32));
  }

  @Test
  void aKeyIsSixtyFourLowerCaseHexDigits() {
    assertThatThrownBy(() -> new ContentKey("ABC")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("64 lower-case hex digits");
  }

  @Test
  void aGitKeyNeedsTheTreeId() {
    Function fn = TestFunction.fromGit("f").build();

    assertThatThrownBy(() -> ContentKey.ofGitTree(fn, " ", SETTINGS))
        .hasMessage("Function shop/orders: the tree id of baseDir is required");
  }
}
