package io.gitfn.workload;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.EnvVarBuilder;
import io.gitfn.api.function.Function;
import io.gitfn.api.function.TestFunction;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Which ConfigMaps a Function reads, and the digest that rolls it when one of them changes. */
class ConfigMapReferencesTest {

  private static Function reading(String... configMaps) {
    Function fn = TestFunction.inline().env("PLAIN", "x").build();
    List<EnvVar> env = new ArrayList<>(fn.getSpec().getEnv());
    for (String name : configMaps) {
      env.add(new EnvVarBuilder().withName("FROM_" + name.toUpperCase()).withNewValueFrom()
          .withNewConfigMapKeyRef("key", name, false).endValueFrom().build());
    }
    fn.getSpec().setEnv(env);
    return fn;
  }

  private static ConfigMap configMap(String name, Map<String, String> data) {
    return new ConfigMapBuilder().withNewMetadata().withName(name).endMetadata().withData(data).build();
  }

  @Test
  void aFunctionReadsTheConfigMapsItsEnvNames() {
    assertThat(ConfigMapReferences.of(reading("settings", "flags"))).containsExactly("flags", "settings");
    assertThat(ConfigMapReferences.of(reading())).isEmpty();
  }

  @Test
  void theDigestMovesWithTheDataOfTheConfigMapsTheFunctionReadsAndNoOther() {
    Function fn = reading("settings");
    Map<String, ConfigMap> before = Map.of("settings", configMap("settings", Map.of("greeting", "hello")),
        "other", configMap("other", Map.of("a", "1")));
    String digest = ConfigMapReferences.digest(fn, before).orElseThrow();

    assertThat(digest).startsWith("sha256:");
    assertThat(ConfigMapReferences.digest(fn, Map.of("settings", configMap("settings", Map.of("greeting", "hello")),
        "other", configMap("other", Map.of("a", "2"))))).as("a ConfigMap it does not read").contains(digest);
    assertThat(ConfigMapReferences.digest(fn, Map.of("settings", configMap("settings", Map.of("greeting", "hi")))))
        .get().isNotEqualTo(digest);
    assertThat(ConfigMapReferences.digest(fn, Map.of("settings", configMap("settings",
        Map.of("greet", "inghello"))))).as("text moved between key and value").get().isNotEqualTo(digest);
    assertThat(ConfigMapReferences.digest(reading("missing"), before)).as("none of the repository's").isEmpty();
  }
}
