package io.gitfn.api.function;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** A Function YAML written for Kyma reads into the types and writes back without losing a field. */
class FunctionSerializationTest {

  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

  @Test
  void readsAnInlineNodeFunction() throws IOException {
    Function fn = Serialization.unmarshal(read("inline-nodejs22.yaml"), Function.class);

    assertThat(fn.getMetadata().getName()).isEqualTo("orders");
    assertThat(fn.getMetadata().getNamespace()).isEqualTo("shop");
    FunctionSpec spec = fn.getSpec();
    assertThat(spec.getRuntime()).isEqualTo(FunctionRuntime.NODEJS22);
    assertThat(spec.getSource().getGitRepository()).isNull();
    assertThat(spec.getSource().getInline().getSource()).contains("main: async function");
    assertThat(spec.getSource().getInline().getDependencies()).contains("\"axios\"");
    assertThat(spec.getEnv()).extracting("name").containsExactly("LOG_LEVEL", "DB_PASSWORD", "REGION");
    assertThat(spec.getEnv().get(1).getValueFrom().getSecretKeyRef().getKey()).isEqualTo("password");
    assertThat(spec.getResourceConfiguration().getFunction().getResources().getLimits())
        .containsEntry("memory", new Quantity("128Mi"));
    assertThat(spec.getResourceConfiguration().getBuild().getProfile()).isEqualTo("fast");
    assertThat(spec.getReplicas()).isEqualTo(2);
    assertThat(spec.getSecretMounts()).singleElement()
        .extracting(SecretMount::getSecretName, SecretMount::getMountPath)
        .containsExactly("orders-tls", "/etc/tls");
    assertThat(spec.getLabels()).containsEntry("team", "checkout");
    assertThat(spec.getAnnotations()).containsEntry("prometheus.io/scrape", "true");
    assertThat(fn.getStatus()).isNull();
  }

  @Test
  void readsAGitFunctionWithAuthAndStatus() throws IOException {
    Function fn = Serialization.unmarshal(read("git-with-auth.yaml"), Function.class);

    GitRepositorySource git = fn.getSpec().getSource().getGitRepository();
    assertThat(fn.getSpec().getRuntime()).isEqualTo(FunctionRuntime.PYTHON312);
    assertThat(git.getUrl()).isEqualTo("https://github.com/example/functions.git");
    assertThat(git.getBaseDir()).isEqualTo("payments");
    assertThat(git.getReference()).isEqualTo("main");
    assertThat(git.getAuth().getType()).isEqualTo(AuthType.BASIC);
    assertThat(git.getAuth().getSecretName()).isEqualTo("git-creds");
    assertThat(fn.getSpec().getScaleConfig().getMaxReplicas()).isEqualTo(5);

    FunctionStatus status = fn.getStatus();
    assertThat(status.getSourceRevision()).isEqualTo("main@sha1:0123456789abcdef0123456789abcdef01234567");
    assertThat(status.getConditions()).extracting("type", "reason").containsExactly(
        tuple(ConditionType.CONFIGURATION_READY, ConditionReason.SOURCE_UPDATED),
        tuple(ConditionType.BUILD_READY, ConditionReason.JOB_FINISHED),
        tuple(ConditionType.RUNNING, ConditionReason.DEPLOYMENT_READY));
    assertThat(status.getHistory()).singleElement().extracting(FunctionHistoryEntry::getContentKey).isEqualTo("4f2a");
  }

  @Test
  void writesAnInlineFunctionBackUnchanged() throws IOException {
    assertRoundTrips("inline-nodejs22.yaml");
  }

  @Test
  void writesAGitFunctionWithStatusBackUnchanged() throws IOException {
    assertRoundTrips("git-with-auth.yaml");
  }

  @Test
  void writesRuntimesAndAuthTypesByTheirKymaNames() {
    assertThat(Serialization.asJson(FunctionRuntime.NODEJS20)).isEqualTo("\"nodejs20\"");
    assertThat(Serialization.asJson(FunctionRuntime.PYTHON312)).isEqualTo("\"python312\"");
    assertThat(Serialization.asJson(AuthType.KEY)).isEqualTo("\"key\"");
    assertThat(FunctionRuntime.NODEJS22.value()).isEqualTo("nodejs22");
  }

  private static void assertRoundTrips(String file) throws IOException {
    String original = read(file);
    String written = Serialization.asYaml(Serialization.unmarshal(original, Function.class));

    JsonNode expected = YAML.readTree(original);
    JsonNode actual = YAML.readTree(written);
    assertThat(actual).as("%s written back:%n%s", file, written).isEqualTo(expected);
  }

  private static String read(String file) throws IOException {
    try (InputStream in = FunctionSerializationTest.class.getResourceAsStream(file)) {
      assertThat(in).as("test resource %s", file).isNotNull();
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }
}
