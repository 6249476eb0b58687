package io.gitfn.secrets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.fabric8.kubernetes.api.model.Secret;
import java.util.Base64;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What a decrypted document must be for gitfn to apply it as a Secret, each rule as the message a user sees: the
 * file, the field, what to do, and never a value.
 */
class SecretValidatorTest {

  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  /** In every value of {@link #VALID}, plain ("s3cr3t") and in base64 ("czNjcjN0"): never in a message. */
  private static final String SECRET = "s3cr3t";
  private static final String VALID = """
      apiVersion: v1
      kind: Secret
      metadata:
        name: orders.db
        namespace: shop
        labels: {app: orders}
        annotations: {team: orders}
      type: Opaque
      immutable: false
      data:
        token: czNjcjN0LXRva2Vu
        shared: czNjcjN0LWZyb20tZGF0YQ==
      stringData:
        password: s3cr3t-password
        shared: s3cr3t-from-stringData
      """;

  @Test
  void stringDataIsFoldedIntoDataAsTheApiServerFoldsItWinningForTheSameKey() throws Exception {
    Secret secret = SecretValidator.toSecret("s.yaml", valid(), "shop");

    assertThat(secret.getStringData()).isNullOrEmpty();
    assertThat(secret.getData()).containsOnly(Map.entry("token", "czNjcjN0LXRva2Vu"),
        Map.entry("password", base64("s3cr3t-password")), Map.entry("shared", base64("s3cr3t-from-stringData")));
    assertThat(secret.getApiVersion()).isEqualTo("v1");
    assertThat(secret.getKind()).isEqualTo("Secret");
    assertThat(secret.getMetadata().getName()).isEqualTo("orders.db");
    assertThat(secret.getImmutable()).isFalse();
  }

  @Test
  void aDocumentWithoutANamespaceGoesToTheRepositorysNamespace() throws Exception {
    Secret secret = SecretValidator.toSecret("s.yaml", without("metadata", "namespace"), "tenant-a");

    assertThat(secret.getMetadata().getNamespace()).isEqualTo("tenant-a");
  }

  @Test
  void dataIsReadAsTheApiServerReadsBase64WithLineBreaksSkippedAndKeptCanonical() throws Exception {
    ObjectNode wrapped = with("data", "token", NODES.textNode("czNjcjN0\nLXRva2Vu\n"));

    assertThat(SecretValidator.toSecret("s.yaml", wrapped, "shop").getData())
        .containsEntry("token", "czNjcjN0LXRva2Vu");
  }

  @Test
  void onlyWhatASecretIsMadeOfIsSetTheRestIsLeftToTheApiServer() throws Exception {
    ObjectNode bare = (ObjectNode) new YAMLMapper().readTree("{apiVersion: v1, kind: Secret, metadata: {name: s}}");

    Secret secret = SecretValidator.toSecret("s.yaml", bare, "shop");

    assertThat(secret.getType()).as("the API server defaults it to Opaque").isNull();
    assertThat(secret.getImmutable()).isNull();
    assertThat(secret.getMetadata().getLabels()).isNullOrEmpty();
    assertThat(secret.getData()).isEmpty();
  }

  static Stream<Arguments> rules() {
    return Stream.of(
        rule("a field no Secret has", with("", "owner", NODES.textNode(SECRET)),
            "s.yaml: `owner` is not a field gitfn applies on a Secret; it takes apiVersion, kind, metadata, type,"
                + " immutable, data and stringData"),
        rule("status is the cluster's", with("", "status", NODES.objectNode()),
            "s.yaml: `status` is not a field gitfn applies on a Secret; it takes apiVersion, kind, metadata, type,"
                + " immutable, data and stringData"),
        rule("v1 only", with("", "apiVersion", NODES.textNode("v2")),
            "s.yaml: apiVersion: is not v1; an encrypted Secret is a v1 Secret"),
        rule("Secrets only", with("", "kind", NODES.textNode("ConfigMap")),
            "s.yaml: kind: is not Secret; gitfn decrypts Secrets only"),
        rule("metadata the cluster writes", with("metadata", "uid", NODES.textNode("1")),
            "s.yaml: metadata.`uid` is not one gitfn applies; a Secret's metadata takes name, namespace, labels and"
                + " annotations"),
        rule("a name", without("metadata", "name"), "s.yaml: metadata.name: is missing; a Secret needs a name"),
        rule("a DNS-1123 subdomain", with("metadata", "name", NODES.textNode("Orders_" + SECRET)),
            "s.yaml: metadata.name: is not a DNS-1123 subdomain: at most 253 lower-case letters, digits, '-' and"
                + " '.', starting and ending with a letter or digit"),
        rule("another tenant's namespace", with("metadata", "namespace", NODES.textNode("tenant-b")),
            "s.yaml: metadata.namespace: is `tenant-b`, not `shop`, the namespace of the FunctionRepository; a"
                + " repository's Secrets go to its own namespace: remove metadata.namespace or set it to shop"),
        rule("what is no namespace name is not quoted", with("metadata", "namespace", NODES.textNode(SECRET + "!")),
            "s.yaml: metadata.namespace: is not a namespace name, not `shop`, the namespace of the"
                + " FunctionRepository; a repository's Secrets go to its own namespace: remove metadata.namespace or"
                + " set it to shop"),
        rule("label values are label values, and not quoted", with("metadata", "labels",
                NODES.objectNode().put("app", SECRET + " !")),
            "s.yaml: metadata.labels.app: is not a label value: at most 63 letters, digits, '-', '_' or '.',"
                + " starting and ending with a letter or digit"),
        rule("label keys are qualified names", with("metadata", "labels", NODES.objectNode().put("-app", "x")),
            "s.yaml: metadata.labels: key `-app` is not a valid name: at most 63 letters, digits, '-', '_' or '.',"
                + " starting and ending with a letter or digit, after an optional DNS prefix and '/'"),
        rule("gitfn.io/ is the controller's", with("metadata", "labels",
                NODES.objectNode().put("gitfn.io/repository", "shop.other")),
            "s.yaml: metadata.labels: keys starting with gitfn.io/ are the controller's to set, not"
                + " `gitfn.io/repository`"),
        rule("annotations are texts", with("metadata", "annotations", NODES.objectNode().put("replicas", 3)),
            "s.yaml: metadata.annotations.replicas: is a number, not text; quote it"),
        rule("no service account token", with("", "type", NODES.textNode("kubernetes.io/service-account-token")),
            "s.yaml: type: kubernetes.io/service-account-token is not applied from Git: Kubernetes would fill the"
                + " Secret with a service account's token"),
        rule("immutable is a boolean", with("", "immutable", NODES.textNode("yes")),
            "s.yaml: immutable: is not true or false"),
        rule("data is base64", with("data", "token", NODES.textNode(SECRET + "-token")),
            "s.yaml: data.token: is not base64; a value under data is base64 (put text under stringData)"),
        rule("data is padded base64, as Go decodes it", with("data", "token", NODES.textNode("czNjcjN0LXRva2V")),
            "s.yaml: data.token: is not base64; a value under data is base64 (put text under stringData)"),
        rule("stringData is text", with("stringData", "port", NODES.numberNode(5432)),
            "s.yaml: stringData.port: is a number, not text; quote it"),
        rule("a null value is no value", with("stringData", "password", NODES.nullNode()),
            "s.yaml: stringData.password: is null, not text; quote it"),
        rule("data is a mapping", with("", "data", NODES.textNode(SECRET)),
            "s.yaml: data: is not a mapping"),
        rule("keys are Secret keys", with("data", "../etc", NODES.textNode("czNjcjN0")),
            "s.yaml: data: key `../etc` is not a Secret key: at most 253 letters, digits, '-', '_' and '.', other"
                + " than . and .. and not starting with .."),
        rule("keys do not start with ..", with("stringData", "..data", NODES.textNode(SECRET)),
            "s.yaml: stringData: key `..data` is not a Secret key: at most 253 letters, digits, '-', '_' and '.',"
                + " other than . and .. and not starting with .."));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("rules")
  void eachRuleIsAMessageNamingTheFileAndFieldAndNoValue(String rule, ObjectNode document, String expected) {
    SecretException e = catchThrowableOfType(() -> SecretValidator.toSecret("s.yaml", document, "shop"),
        SecretException.class);

    assertThat(e).as(rule).isNotNull().hasMessage(expected);
    assertThat(e.reason()).isEqualTo(SecretException.Reason.INVALID_SECRET);
    assertThat(e.file()).isEqualTo("s.yaml");
    assertThat(e.getMessage()).doesNotContain(SECRET, "czNjcjN0");
  }

  private static Arguments rule(String rule, ObjectNode document, String expected) {
    return Arguments.of(rule, document, expected);
  }

  static ObjectNode valid() {
    try {
      return (ObjectNode) new YAMLMapper().readTree(VALID);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  /** The valid document with {@code field} of the mapping {@code at} ("" for the top, else a top-level field). */
  private static ObjectNode with(String at, String field, JsonNode value) {
    ObjectNode document = valid();
    (at.isEmpty() ? document : (ObjectNode) document.get(at)).set(field, value);
    return document;
  }

  private static ObjectNode without(String at, String field) {
    ObjectNode document = valid();
    ((ObjectNode) document.get(at)).remove(field);
    return document;
  }

  private static String base64(String text) {
    return Base64.getEncoder().encodeToString(text.getBytes(java.nio.charset.StandardCharsets.UTF_8));
  }
}
