package io.gitfn.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

/**
 * The reference pages cannot drift from the CRDs: every field path under spec and status of a CRD's schema, and
 * every printer column, appears in its page, written as {@code `spec.a.b`}, with {@code []} for list items.
 */
class ReferenceDocsTest {

  private static final Path ROOT = Path.of("").toAbsolutePath();

  @Test
  void functionReferenceNamesEveryField() throws IOException {
    assertPageCovers("config/crd/functions.serverless.kyma-project.io-v1.yml", "docs/reference/function.md");
  }

  @Test
  void functionRepositoryReferenceNamesEveryField() throws IOException {
    assertPageCovers("config/crd/functionrepositories.gitfn.io-v1.yml", "docs/reference/functionrepository.md");
  }

  @Test
  void pathsAreListedWithListItemsMarked() {
    Map<String, Object> schema = Map.of("properties", Map.of("spec", Map.of("properties", Map.of(
        "env", Map.of("type", "array", "items", Map.of("properties", Map.of("name", Map.of("type", "string")))),
        "labels", Map.of("type", "object", "additionalProperties", Map.of("type", "string"))))));
    assertThat(fieldPaths(schema)).containsExactlyInAnyOrder("spec", "spec.env", "spec.env[].name", "spec.labels");
  }

  private static void assertPageCovers(String crdFile, String pageFile) throws IOException {
    Map<String, Object> crd = new Yaml().load(Files.readString(ROOT.resolve(crdFile)));
    Map<String, Object> version = first(list(map(crd.get("spec")).get("versions")));
    Map<String, Object> schema = map(map(version.get("schema")).get("openAPIV3Schema"));
    String page = Files.readString(ROOT.resolve(pageFile));
    List<String> missing = new ArrayList<>();
    for (String path : fieldPaths(schema)) {
      if (!page.contains("`" + path + "`") && !coveredByWildcard(page, path)) {
        missing.add(path);
      }
    }
    for (Object column : list(version.get("additionalPrinterColumns"))) {
      String name = (String) map(column).get("name");
      if (!page.contains("`" + name.toUpperCase() + "`")) {
        missing.add("printer column " + name.toUpperCase());
      }
    }
    assertThat(missing).as("fields of %s that %s does not name", crdFile, pageFile).isEmpty();
  }

  /**
   * A Kubernetes core type taken whole, such as a Pod's security context, is named once as {@code `spec.x.*`}: its
   * dozens of fields mean what Kubernetes documents, and a page that repeated them would hide gitfn's own.
   */
  static boolean coveredByWildcard(String page, String path) {
    for (int dot = path.indexOf('.'); dot >= 0; dot = path.indexOf('.', dot + 1)) {
      if (page.contains("`" + path.substring(0, dot) + ".*`")) {
        return true;
      }
    }
    return false;
  }

  @Test
  void aWildcardCoversTheFieldsBelowItOnly() {
    String page = "| `spec.podSecurityContext.*` | the Pod's |";
    assertThat(coveredByWildcard(page, "spec.podSecurityContext.seccompProfile.type")).isTrue();
    assertThat(coveredByWildcard(page, "spec.podSecurityContext")).isFalse();
    assertThat(coveredByWildcard(page, "spec.containerSecurityContext.privileged")).isFalse();
  }

  static List<String> fieldPaths(Map<String, Object> schema) {
    List<String> paths = new ArrayList<>();
    Map<String, Object> top = map(schema.get("properties"));
    for (String root : List.of("spec", "status")) {
      if (top.containsKey(root)) {
        walk(root, map(top.get(root)), paths);
      }
    }
    return paths;
  }

  private static void walk(String path, Map<String, Object> node, List<String> paths) {
    paths.add(path);
    if (node.containsKey("items")) {
      Map<String, Object> items = map(node.get("items"));
      if (items.containsKey("properties")) {
        map(items.get("properties")).forEach((name, child) -> walk(path + "[]." + name, map(child), paths));
      }
    }
    if (node.containsKey("properties")) {
      map(node.get("properties")).forEach((name, child) -> walk(path + "." + name, map(child), paths));
    }
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> map(Object o) {
    return (Map<String, Object>) o;
  }

  @SuppressWarnings("unchecked")
  private static List<Object> list(Object o) {
    return o == null ? List.of() : (List<Object>) o;
  }

  private static Map<String, Object> first(List<Object> l) {
    return map(l.get(0));
  }
}
