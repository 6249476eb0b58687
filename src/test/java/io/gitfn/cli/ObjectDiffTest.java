package io.gitfn.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import org.junit.jupiter.api.Test;

/** The text {@code gitfn diff} prints for one object. */
class ObjectDiffTest {

  private static final KubernetesSerialization YAML = new KubernetesSerialization();

  private static GenericKubernetesResource function(String runtime, String env, String revision) {
    return YAML.unmarshal("""
        apiVersion: serverless.kyma-project.io/v1alpha2
        kind: Function
        metadata:
          name: hello
          namespace: shop
          resourceVersion: "12"
          labels: {gitfn.io/repository: shop.infra}
          annotations: {gitfn.io/revision: "%s", gitfn.io/applied-hash: "sha256:%s"}
        spec:
          source: {inline: {source: "x"}}
          runtime: %s
          env: [{name: VERSION, value: "%s"}]
        """.formatted(revision, revision, runtime, env), GenericKubernetesResource.class);
  }

  @Test
  void aChangedFieldIsAHunkUnderAChangedHeader() {
    String diff = ObjectDiff.FUNCTION.changed("shop/hello", function("nodejs22", "v1", "a"), function("nodejs22", "v2", "b"));

    assertThat(diff).startsWith("~ changed Function shop/hello\n@@ ")
        .contains("\n   - name: \"VERSION\"\n", "-    value: \"v1\"\n", "+    value: \"v2\"\n")
        .doesNotContain("gitfn.io/revision", "applied-hash", "resourceVersion");
  }

  @Test
  void onlyBookkeepingOrKeyOrderChangedIsNoDiff() {
    GenericKubernetesResource reordered = YAML.unmarshal("""
        apiVersion: serverless.kyma-project.io/v1alpha2
        kind: Function
        metadata:
          name: hello
          labels: {gitfn.io/repository: shop.infra}
        spec:
          env: [{value: "v1", name: VERSION}]
          runtime: nodejs22
          source: {inline: {source: "x"}}
        """, GenericKubernetesResource.class);

    assertThat(ObjectDiff.FUNCTION.changed("shop/hello", function("nodejs22", "v1", "a"), reordered)).isEmpty();
  }

  @Test
  void newAndRemovedFunctionsShowEveryLine() {
    assertThat(ObjectDiff.FUNCTION.added("shop/hello", function("python312", "v1", "a")))
        .startsWith("+ new Function shop/hello\n+metadata:\n").contains("+  runtime: \"python312\"\n");
    assertThat(ObjectDiff.FUNCTION.removed("shop/hello", function("python312", "v1", "a")))
        .startsWith("- removed Function shop/hello\n-metadata:\n");
  }

  @Test
  void aConfigMapShowsItsDataAndLeavesTheRevisionOut() {
    GenericKubernetesResource live = YAML.unmarshal("""
        apiVersion: v1
        kind: ConfigMap
        metadata:
          name: settings
          namespace: shop
          labels: {gitfn.io/repository: shop.infra}
          annotations: {gitfn.io/revision: "main@sha1:a"}
        data: {greeting: Hallo, farewell: Tschuess}
        """, GenericKubernetesResource.class);
    GenericKubernetesResource after = YAML.unmarshal("""
        apiVersion: v1
        kind: ConfigMap
        metadata:
          name: settings
          namespace: shop
          labels: {gitfn.io/repository: shop.infra}
          annotations: {gitfn.io/revision: "folder@sha1:0"}
        data: {farewell: Tschuess, greeting: Servus}
        """, GenericKubernetesResource.class);

    assertThat(ObjectDiff.CONFIG_MAP.changed("shop/settings", live, after))
        .startsWith("~ changed ConfigMap shop/settings\n@@ ")
        .contains("-  greeting: \"Hallo\"\n+  greeting: \"Servus\"\n").doesNotContain("revision");
    assertThat(ObjectDiff.CONFIG_MAP.added("shop/settings", after)).startsWith("+ new ConfigMap shop/settings\n")
        .contains("+data:\n+  farewell: \"Tschuess\"\n");
  }
}
