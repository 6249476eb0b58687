package io.gitfn.manifest;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.gitfn.api.Annotations;
import io.gitfn.api.function.AuthType;
import io.gitfn.api.function.Function;
import io.gitfn.api.function.FunctionRuntime;
import io.gitfn.api.function.TestFunction;
import org.junit.jupiter.api.Test;

/** The YAML that tests commit to their infra repositories with {@link TestFunction#toYaml()} is a valid file. */
class TestFunctionYamlTest {

  private static final KubernetesSerialization JSON = new KubernetesSerialization();

  @Test
  void whatToYamlWritesTheManifestReaderReadsBackAsTheFunctionBuilt() throws Exception {
    TestFunction hello = TestFunction.declared("hello").runtime(FunctionRuntime.PYTHON312)
        .code("def main(event, context):\n    return \"hi\"\n").metadataLabel("gitfn.io/shard", "b")
        .env("VERSION", "v1").scale(1, 3);
    TestFunction orders = TestFunction.declared("orders")
        .gitRepository("https://git.example/apps.git", "main", "orders").gitAuth(AuthType.BASIC, "git");

    Manifest manifest = ManifestReaderTest.read(
        FakeTree.of("functions/hello.yaml", hello.toYaml(), "functions/orders.yaml", orders.toYaml()));

    assertThat(manifest.functions()).extracting(TestFunctionYamlTest::withoutSourcePath)
        .containsExactly(JSON.asJson(hello.build()), JSON.asJson(orders.build()));
  }

  private static String withoutSourcePath(Function read) {
    read.getMetadata().getAnnotations().remove(Annotations.SOURCE_PATH);
    return JSON.asJson(read);
  }
}
