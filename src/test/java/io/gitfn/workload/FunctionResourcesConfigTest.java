package io.gitfn.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.Quantity;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** An operator's Function profiles, in Kyma's own resourcesConfiguration shape. */
class FunctionResourcesConfigTest {

  /** Kyma's values.yaml at main of 2026-08, containers.manager.configuration.data.resourcesConfiguration. */
  private static final String KYMAS_OWN = """
      function:
        resources:
          minRequestCpu: "10m"
          minRequestMemory: "16Mi"
          defaultPreset: "L"
          presets:
            XS: {requestCpu: "50m", requestMemory: "64Mi", limitCpu: "150m", limitMemory: "256Mi"}
            S: {requestCpu: "100m", requestMemory: "128Mi", limitCpu: "200m", limitMemory: "256Mi"}
            M: {requestCpu: "200m", requestMemory: "256Mi", limitCpu: "400m", limitMemory: "512Mi"}
            L: {requestCpu: "400m", requestMemory: "512Mi", limitCpu: "800m", limitMemory: "1024Mi"}
            XL: {requestCpu: "800m", requestMemory: "1024Mi", limitCpu: "1600m", limitMemory: "2048Mi"}
      """;

  @Test
  void kymasOwnFileReadsAsKymasFigures() {
    FunctionResourcesConfig config = FunctionResourcesConfig.parse(KYMAS_OWN, "resources.yaml");

    for (String name : FunctionProfiles.NAMES) {
      assertThat(config.presets().get(name)).as(name).isEqualTo(FunctionProfiles.KYMA.get(name));
    }
    assertThat(config.defaultPreset()).contains("L");
  }

  @Test
  void presetsNamedGetTheOperatorsFiguresAndTheOthersKeepKymas() {
    FunctionResourcesConfig config = FunctionResourcesConfig.parse("""
        function:
          resources:
            defaultPreset: S
            presets:
              L: {requestCpu: 100m, requestMemory: 128Mi, limitCpu: "1", limitMemory: 1Gi}
        """, "resources.yaml");

    assertThat(config.presets().get("L").getRequests()).containsEntry("cpu", new Quantity("100m"))
        .containsEntry("memory", new Quantity("128Mi"));
    assertThat(config.presets().get("L").getLimits()).containsEntry("cpu", new Quantity("1"))
        .containsEntry("memory", new Quantity("1Gi"));
    assertThat(config.presets().get("M")).isEqualTo(FunctionProfiles.KYMA.get("M"));
    assertThat(config.defaultPreset()).contains("S");
    assertThat(WorkloadSettings.defaults().withFunctionResources(config).defaultProfile()).isEqualTo("S");
  }

  @ParameterizedTest(name = "{1}")
  @CsvSource(delimiter = '|', value = {
      "function: {resources: {presets: {XXL: {requestCpu: 1, requestMemory: 1Gi, limitCpu: 2, limitMemory: 2Gi}}}}"
          + "|f.yaml: function.resources.presets: function profile `XXL` is not one of XS, S, M, L, XL",
      "function: {resources: {presets: {L: {requestCpu: 2, requestMemory: 1Gi, limitCpu: 1, limitMemory: 2Gi}}}}"
          + "|f.yaml: function.resources.presets: function profile `L`: the cpu request 2 is above its limit 1",
      "function: {resources: {presets: {L: {requestCpu: lots, requestMemory: 1Gi, limitCpu: 1, limitMemory: 2Gi}}}}"
          + "|f.yaml: function.resources.presets.L.requestCpu `lots` is not a positive Kubernetes quantity",
      "function: {resources: {presets: {L: {requestCpu: 1, requestMemory: 1Gi, limitCpu: 1}}}}"
          + "|f.yaml: function.resources.presets.L.limitMemory must be a string, and is missing",
      "function: {resources: {presets: {L: {requestCpu: 1, requestMemory: 1Gi, limitCpu: 1, limitMemory: 2Gi, gpu: 1}}}}"
          + "|f.yaml: function.resources.presets.L.gpu is not a setting gitfn reads",
      "function: {resources: {minRequestCpu: 50m}}"
          + "|f.yaml: function.resources.minRequestCpu must be 10m",
      "function: {resources: {defaultPreset: XXL}}"
          + "|f.yaml: function.resources.defaultPreset `XXL` is not one of XS, S, M, L, XL",
      "build: {resources: {}}|f.yaml: build is not a setting gitfn reads; it reads function",
      "function: [L]|f.yaml: function must be a mapping, not a list",
      "function: {resources: {presets: &a [*a]}}|f.yaml: function.resources.presets must be a mapping, not a list",
      "function: {resources: {presets: {L: {requestCpu: [1]}}}}"
          + "|f.yaml: function.resources.presets.L.requestCpu must be a string, not a list",
  })
  void aBadFileIsRefusedNamingTheField(String yaml, String message) {
    assertThatThrownBy(() -> FunctionResourcesConfig.parse(yaml, "f.yaml"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith(message);
  }

  @Test
  void aliasesThatWouldMultiplyTheDocumentAreRefused() {
    StringBuilder bomb = new StringBuilder("a: &a [x, x, x, x, x, x, x, x, x, x]\n");
    for (char level = 'b'; level <= 'k'; level++) {
      String previous = String.valueOf((char) (level - 1));
      bomb.append(level).append(": &").append(level).append(" [").append(("*" + previous + ", ").repeat(9))
          .append('*').append(previous).append("]\n");
    }

    assertThatThrownBy(() -> FunctionResourcesConfig.parse(bomb.toString(), "f.yaml"))
        .hasMessageStartingWith("f.yaml: not YAML").hasMessageContaining("aliases");
  }

  @Test
  void aFileLargerThanAnyPresetListNeedsIsRefusedUnread() {
    String huge = "function: {resources: {}}\n" + "#".repeat(FunctionResourcesConfig.MAX_BYTES);

    assertThatThrownBy(() -> FunctionResourcesConfig.parse(huge, "f.yaml"))
        .hasMessage("f.yaml: larger than 65536 bytes");
  }
}
