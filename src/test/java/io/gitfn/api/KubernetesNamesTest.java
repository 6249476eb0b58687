package io.gitfn.api;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The key of a ConfigMap's or a Secret's data, as the API server checks it (and a volume mount uses it). */
class KubernetesNamesTest {

  @ParameterizedTest
  @ValueSource(strings = {"password", "app.properties", "TLS_CERT", "a-b_c.d", ".hidden", "..x", "x..y"})
  void aDataKeyIsLettersDigitsDashesUnderscoresAndDots(String key) {
    assertThat(KubernetesNames.isDataKey(key)).isEqualTo(!key.startsWith(".."));
  }

  @ParameterizedTest
  @ValueSource(strings = {"", ".", "has space", "a/b", "ü", "tab\t"})
  void anythingElseIsNotOne(String key) {
    assertThat(KubernetesNames.isDataKey(key)).isFalse();
  }

  @ParameterizedTest
  @ValueSource(ints = {253, 254})
  void aDataKeyHasAtMost253Characters(int length) {
    assertThat(KubernetesNames.isDataKey("k".repeat(length))).isEqualTo(length <= 253);
  }
}
