package io.gitfn.manifest;

import static io.gitfn.manifest.ManifestReaderTest.errors;
import static io.gitfn.manifest.ManifestReaderTest.function;
import static io.gitfn.manifest.ManifestReaderTest.names;
import static io.gitfn.manifest.ManifestReaderTest.read;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.gitfn.api.Labels;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * ConfigMaps in a revision: kept, checked at their lines as the API server would check them, so that one it would
 * refuse makes the revision invalid and nothing of it applies. Values are never coerced: a ConfigMap holds strings.
 */
class ConfigMapReaderTest {

  /** A ConfigMap document: line 4 is its name, {@code lines} from 5. */
  static String configMap(String name, String... lines) {
    return "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: " + name + "\n" + String.join("\n", lines)
        + (lines.length == 0 ? "" : "\n");
  }

  @Test
  void aConfigMapIsKeptAsWrittenWithItsFileAndLineAndSortedByName() throws Exception {
    Manifest manifest = read(FakeTree.of(
        "functions/orders.yaml", function("orders") + "---\n" + configMap("orders-settings",
            "  namespace: shop",
            "  labels: {app: orders}",
            "  annotations: {owner: \"team-a\"}",
            "data:",
            "  region: eu-1",
            "  port: \"8080\"",
            "  app.properties: |",
            "    retries=3",
            "binaryData:",
            "  logo.png: iVBORw0K",
            "immutable: true"),
        "functions/a-shared.yml", configMap("shared", "data: {mode: strict}")));

    assertThat(names(manifest)).containsExactly("orders");
    assertThat(manifest.notices()).isEmpty();
    ConfigMap orders = new ConfigMapBuilder()
        .withNewMetadata().withName("orders-settings").withNamespace("shop").withLabels(Map.of("app", "orders"))
        .withAnnotations(Map.of("owner", "team-a")).endMetadata()
        .withData(Map.of("app.properties", "retries=3\n", "port", "8080", "region", "eu-1"))
        .withBinaryData(Map.of("logo.png", "iVBORw0K"))
        .withImmutable(true)
        .build();
    ConfigMap shared = new ConfigMapBuilder().withNewMetadata().withName("shared").endMetadata()
        .withData(Map.of("mode", "strict")).build();
    assertThat(manifest.configMaps()).containsExactly(
        new DeclaredConfigMap("functions/orders.yaml", 11, orders),
        new DeclaredConfigMap("functions/a-shared.yml", 1, shared));
  }

  @Test
  void itsNamespaceIsKeptAsWrittenOrNoneForOnlyTheControllerKnowsTheRepositorysNamespace() throws Exception {
    Manifest manifest = read(FakeTree.of("functions/a.yaml", configMap("a") + "---\n"
        + configMap("b", "  namespace: elsewhere")));

    assertThat(manifest.configMaps()).extracting(c -> c.configMap().getMetadata().getNamespace())
        .containsExactly(null, "elsewhere");
  }

  @Test
  void aRepositoryPlacesItInItsOwnNamespaceWhichItMayNameButNotChange() throws Exception {
    Manifest manifest = read(FakeTree.of("functions/a.yaml", configMap("a") + "---\n"
        + configMap("b", "  namespace: shop")));
    DeclaredConfigMap unnamed = manifest.configMaps().get(0);
    DeclaredConfigMap inShop = manifest.configMaps().get(1);

    assertThat(unnamed.in("team-a").getMetadata().getNamespace()).isEqualTo("team-a");
    assertThat(inShop.in("shop").getMetadata().getNamespace()).isEqualTo("shop");
    assertThat(inShop.refusedIn("team-a")).hasValueSatisfying(refused -> assertThat(refused).hasToString(
        "functions/a.yaml:6: metadata.namespace: is `shop`, not `team-a`, the namespace of the FunctionRepository; a"
            + " repository's ConfigMaps go to its own namespace: remove metadata.namespace or set it to team-a"));
    assertThatThrownBy(() -> inShop.in("team-a")).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void anUnquotedNumberBooleanOrNullIsRefusedAtItsLineRatherThanCoercedToAString() {
    // YAML 1.1 reads port: 8080 as the integer 8080 and debug: yes as true; kubectl would send them as such, and the
    // API server refuses a ConfigMap whose data is not strings. Coercing them would apply what nobody wrote.
    assertThat(errors(FakeTree.of("functions/settings.yaml", configMap("settings",
        "data:",
        "  port: 8080",
        "  debug: yes",
        "  ratio: 1.50",
        "  empty:",
        "  nested: {a: b}",
        "  list: [a, b]",
        "  quoted: \"8080\""))))
        .containsExactly(
            "functions/settings.yaml:6: data[port]: is the number 8080, not a string: YAML reads an unquoted number"
                + " as one, and a ConfigMap holds strings; quote it, as \"8080\"",
            "functions/settings.yaml:7: data[debug]: is the boolean true, not a string: YAML reads an unquoted true,"
                + " false, yes, no, on or off as one, and a ConfigMap holds strings; quote it",
            "functions/settings.yaml:8: data[ratio]: is the number 1.50, not a string: YAML reads an unquoted number"
                + " as one, and a ConfigMap holds strings; quote it, as \"1.50\"",
            "functions/settings.yaml:9: data[empty]: is null, not a string: YAML reads an empty value, ~ or null as"
                + " null; write \"\" for an empty string",
            "functions/settings.yaml:10: data[nested]: is a mapping, not a string: a ConfigMap holds strings; write a"
                + " block of text after `|` to keep a file's content",
            "functions/settings.yaml:11: data[list]: is a list, not a string: a ConfigMap holds strings; write a"
                + " block of text after `|` to keep a file's content");
  }

  @Test
  void aLabelOrAnnotationOfTheControllersIsRefusedForItDecidesWhatPruneDeletes() {
    assertThat(errors(FakeTree.of("functions/steal.yaml", configMap("steal",
        "  labels:",
        "    " + Labels.REPOSITORY + ": someone-elses",
        "  annotations:",
        "    gitfn.io/revision: main@sha1:0"))))
        .containsExactly(
            "functions/steal.yaml:6: metadata.labels[gitfn.io/repository]: keys starting with gitfn.io/ are the"
                + " controller's to set (it tells by them which repository a ConfigMap belongs to and what to"
                + " prune); use another prefix",
            "functions/steal.yaml:8: metadata.annotations[gitfn.io/revision]: keys starting with gitfn.io/ are the"
                + " controller's to set (it tells by them which repository a ConfigMap belongs to and what to"
                + " prune); use another prefix");
  }

  @Test
  void labelsAndAnnotationsFollowKubernetesRules() {
    assertThat(errors(FakeTree.of("functions/a.yaml", configMap("a",
        "  labels:",
        "    version: 2",
        "    tier: \"not a value\"",
        "  annotations:",
        "    note: " + "y".repeat(300 * 1024)))))
        .containsExactly(
            "functions/a.yaml:6: metadata.labels[version]: is the number 2, not a string: YAML reads an unquoted"
                + " number as one, and Kubernetes metadata holds strings; quote it, as \"2\"",
            "functions/a.yaml:7: metadata.labels[tier]: value `not a value` is not a valid label value: at most 63"
                + " letters, digits, '-', '_' or '.', starting and ending with a letter or digit",
            "functions/a.yaml:8: metadata.annotations: are 307204 bytes together, more than the 262144 Kubernetes"
                + " allows");
  }

  @Test
  void aKeyThatCannotBeAFileNameOrIsGivenTwiceIsRefused() {
    String longKey = "k".repeat(254);

    assertThat(errors(FakeTree.of("functions/keys.yaml", configMap("keys",
        "data:",
        "  \"has space\": x",
        "  ..data: x",
        "  \"../escape\": x",
        "  " + longKey + ": x",
        "  1.conf: x",
        "binaryData:",
        "  1.conf: eA=="))))
        .containsExactly(
            "functions/keys.yaml:6: data[has space]: key `has space` is not a ConfigMap key: letters, digits, '-',"
                + " '_' and '.', other than . and .. and not starting with .. (it becomes a file name where the"
                + " ConfigMap is mounted)",
            "functions/keys.yaml:7: data[..data]: key `..data` is not a ConfigMap key: letters, digits, '-', '_'"
                + " and '.', other than . and .. and not starting with .. (it becomes a file name where the ConfigMap"
                + " is mounted)",
            "functions/keys.yaml:8: data[../escape]: key `../escape` is not a ConfigMap key: letters, digits, '-',"
                + " '_' and '.', other than . and .. and not starting with .. (it becomes a file name where the"
                + " ConfigMap is mounted)",
            "functions/keys.yaml:9: data[" + longKey + "]: key `" + "k".repeat(64) + "…` is 254 characters; a"
                + " ConfigMap key has at most 253",
            "functions/keys.yaml:12: binaryData[1.conf]: is also a key of data; a key is in data or in binaryData,"
                + " not both");
  }

  @Test
  void binaryDataIsBase64AsTheApiServerDecodesItAndIsKeptCanonical() throws Exception {
    byte[] bytes = new byte[100];
    for (int i = 0; i < bytes.length; i++) {
      bytes[i] = (byte) (i * 7);
    }
    String base64 = Base64.getEncoder().encodeToString(bytes);
    String wrapped = base64.substring(0, 76) + "\n    " + base64.substring(76);

    Manifest manifest = read(FakeTree.of("functions/blob.yaml", configMap("blob",
        "binaryData:",
        "  blob: |",
        "    " + wrapped)));

    assertThat(manifest.configMaps().get(0).configMap().getBinaryData()).containsExactly(Map.entry("blob", base64));
    assertThat(errors(FakeTree.of("functions/blob.yaml", configMap("blob",
        "binaryData:",
        "  text: not base64!",
        "  unpadded: eA"))))
        .containsExactly(
            "functions/blob.yaml:6: binaryData[text]: is not base64 (padded, as `base64` writes it); a value under"
                + " binaryData is base64, put text under data",
            "functions/blob.yaml:7: binaryData[unpadded]: is not base64 (padded, as `base64` writes it); a value"
                + " under binaryData is base64, put text under data");
  }

  @Test
  void aConfigMapOverTheMebibyteKubernetesAllowsIsRefusedAtItsData() {
    String half = "x".repeat(600 * 1024);
    String binaryHalf = Base64.getEncoder().encodeToString(half.getBytes(StandardCharsets.UTF_8));

    assertThat(errors(FakeTree.of("functions/big.yaml", configMap("big",
        "data:",
        "  a: " + half,
        "binaryData:",
        "  b: " + binaryHalf))))
        .containsExactly("functions/big.yaml:5: data: the ConfigMap holds 1228800 bytes of data and binaryData, more"
            + " than the 1048576 (1 MiB) Kubernetes allows in one ConfigMap; split it");
  }

  @Test
  void aTwoMebibyteConfigMapIsRefusedByTheParsersLimitBeforeAnyTreeIsBuilt() {
    String large = configMap("large", "data:", "  blob: " + "x".repeat(2 * 1024 * 1024));

    assertThat(errors(FakeTree.of("functions/large.yaml", large))).singleElement().asString()
        .startsWith("functions/large.yaml").contains("is not valid YAML", "exceeds the limit");
  }

  @Test
  void aNameGivenTwiceIsRefusedNamingBothFiles() {
    assertThat(errors(FakeTree.of(
            "functions/a.yaml", configMap("settings", "data: {a: \"1\"}"),
            "functions/b.yaml", function("b") + "---\n" + configMap("settings", "data: {a: \"2\"}"))))
        .containsExactly("functions/b.yaml:11: metadata.name: ConfigMap `settings` is also declared in"
            + " functions/a.yaml:1; ConfigMap names must be unique");
  }

  @Test
  void itsNameNamespaceAndFieldsAreTheOnesKubernetesAndGitfnApply() {
    assertThat(errors(FakeTree.of(
            "functions/a.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  namespace: ../../kube-system\n"
                + "data: {a: b}\n",
            "functions/b.yaml", configMap("Not_A_Name", "immutable: \"yes\""),
            "functions/c.yaml", configMap("exported", "  uid: 0b8e", "  resourceVersion: \"7\"", "status: {}"))))
        .containsExactly(
            "functions/a.yaml:3: metadata.name: is required",
            "functions/a.yaml:4: metadata.namespace: `../../kube-system` is not a namespace name: at most 63"
                + " lower-case letters, digits and '-', starting and ending with a letter or digit",
            "functions/b.yaml:4: metadata.name: `Not_A_Name` is not a DNS-1123 subdomain: at most 253 lower-case"
                + " letters, digits, '-' and '.', starting and ending with a letter or digit",
            "functions/b.yaml:5: immutable: is not true or false",
            "functions/c.yaml:5: metadata.uid: is not a field gitfn applies on a ConfigMap's metadata; it takes"
                + " name, namespace, labels, annotations (a ConfigMap exported from a cluster keeps fields the"
                + " cluster sets: remove them)",
            "functions/c.yaml:6: metadata.resourceVersion: is not a field gitfn applies on a ConfigMap's metadata;"
                + " it takes name, namespace, labels, annotations (a ConfigMap exported from a cluster keeps fields"
                + " the cluster sets: remove them)",
            "functions/c.yaml:7: status: is not a field gitfn applies on a ConfigMap; it takes apiVersion, kind,"
                + " metadata, data, binaryData, immutable");
  }

  @Test
  void anInvalidConfigMapMakesTheWholeRevisionInvalid() {
    assertThat(errors(FakeTree.of(
            "functions/hello.yaml", function("hello"),
            "functions/settings.yaml", configMap("settings", "data: {port: 8080}"))))
        .singleElement().asString().startsWith("functions/settings.yaml:5: data[port]: is the number 8080");
  }

  @Test
  void aConfigMapOfAnotherApiVersionOrEncryptedStaysANotice() throws Exception {
    Manifest manifest = read(FakeTree.of("functions/other.yaml", "apiVersion: v2\nkind: ConfigMap\nmetadata:\n"
        + "  name: c\n---\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: d\n"));

    assertThat(manifest.configMaps()).isEmpty();
    assertThat(manifest.notices()).extracting(ManifestNotice::toString).containsExactly(
        "functions/other.yaml:2: a ConfigMap (v2), which the controller does not apply: it takes Functions and "
            + AllowedKinds.DEFAULT.shown() + "; ignored",
        "functions/other.yaml:7: a Deployment (apps/v1), which the controller does not apply: it takes Functions and "
            + AllowedKinds.DEFAULT.shown() + "; ignored");
  }

  @Test
  void aRevisionDeclaresAtMostItsNumberOfConfigMapsAndStopsReadingThere() {
    FakeTree tree = new FakeTree();
    for (int i = 0; i < 4; i++) {
      tree.file("functions/c" + i + ".yaml", configMap("c" + i) + "---\n" + configMap("d" + i));
    }

    assertThat(errors(tree, ManifestOptions.defaults().withMaxConfigMaps(3))).containsExactly(
        "functions: declares more than 3 ConfigMaps, the most one revision may declare; split them over several"
            + " FunctionRepositories");
  }

  @Test
  void aDeclaredConfigMapHoldsACopyAndDoesNotPrintItsData() {
    ConfigMap original = new ConfigMapBuilder().withNewMetadata().withName("a").endMetadata()
        .withData(new java.util.HashMap<>(Map.of("k", "v"))).build();
    DeclaredConfigMap declared = new DeclaredConfigMap("a.yaml", 1, original);

    original.getData().put("k", "changed");
    declared.configMap().getData().put("k", "changed too");
    declared.configMap().getMetadata().setName("renamed");

    assertThat(declared.configMap().getData()).containsExactly(Map.entry("k", "v"));
    assertThat(declared.name()).isEqualTo("a");
    assertThat(declared).hasToString("DeclaredConfigMap[a.yaml:1, a]");
  }
}
