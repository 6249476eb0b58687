package io.gitfn.secrets.sops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.ScalarNode;

/** Unencrypted values hash as sops hashes what go-yaml v3 made of them (its {@code resolve.go}), or are refused. */
class PlainScalarTest {

  @ParameterizedTest(name = "{0} hashes as {1}")
  @CsvSource(delimiter = '|', value = {
      "v1 | v1", "true | True", "TRUE | True", "False | False", "yes | yes", "on | on", "5 | 5", "+5 | 5",
      "-12 | -12", "0 | 0", "1_000 | 1000", "1.50 | 1.5", "100.0 | 100", "-0.0 | -0", ".5 | 0.5", "3. | 3",
      "1.2.3 | 1.2.3", "10Mi | 10Mi", "-x | -x", "'5' | 5", "\"true\" | true", "_5 | _5", "ENC | ENC"})
  void hashesAsSops(String yaml, String macText) throws SopsException {
    Leaf leaf = PlainScalar.read(scalar(yaml), "f", "p");

    assertThat(new String(leaf.macBytes(), StandardCharsets.UTF_8)).isEqualTo(macText);
  }

  @ParameterizedTest(name = "{0} is null, out of the MAC")
  @CsvSource({"~", "null", "NULL", "''"})
  void nullsStayOutOfTheMac(String yaml) throws SopsException {
    if (yaml.equals("''")) {
      assertThat(PlainScalar.read(scalar(yaml), "f", "p").macBytes()).isEmpty();
      return;
    }
    assertThat(PlainScalar.read(scalar(yaml), "f", "p").macBytes()).isNull();
  }

  @ParameterizedTest(name = "{0} is refused")
  @CsvSource({"007", "0x1F", "0o17", "0b101", "1e3", "2026-01-01", ".inf", "-.Inf", ".nan",
      "99999999999999999999", "1.0000000000000001", "1_0.5e2"})
  void formsThatNeedGoFormattingAreRefused(String yaml) {
    assertThatThrownBy(() -> PlainScalar.read(scalar(yaml), "f", "p"))
        .isInstanceOf(SopsException.class)
        .hasMessageContaining("f: p: is unencrypted and reads as a YAML number");
  }

  private static ScalarNode scalar(String yaml) {
    MappingNode root = (MappingNode) new Yaml(new LoaderOptions()).compose(new StringReader("k: " + yaml));
    return (ScalarNode) root.getValue().get(0).getValueNode();
  }
}
