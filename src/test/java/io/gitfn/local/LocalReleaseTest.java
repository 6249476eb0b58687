package io.gitfn.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.EnvVarBuilder;
import io.gitfn.api.function.Function;
import io.gitfn.api.function.TestFunction;
import io.gitfn.build.BuildSettings;
import io.gitfn.build.FunctionBuildPlan;
import io.gitfn.manifest.DeclaredConfigMap;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A Function's env as {@code gitfn up} runs it: its own values, and what it reads from the folder's ConfigMaps. */
class LocalReleaseTest {

  private static final DeclaredConfigMap SETTINGS = new DeclaredConfigMap("functions/settings.yaml", 1,
      new ConfigMapBuilder().withNewMetadata().withName("settings").endMetadata()
          .withData(Map.of("greeting", "Hallo")).withBinaryData(Map.of("logo", "iVBORw0KGgo=")).build());
  private static final DeclaredConfigMap ELSEWHERE = new DeclaredConfigMap("functions/shop.yaml", 4,
      new ConfigMapBuilder().withNewMetadata().withName("shop-settings").withNamespace("shop").endMetadata()
          .withData(Map.of("currency", "EUR")).build());
  private static final FolderConfigMaps FOLDER = FolderConfigMaps.of(List.of(SETTINGS, ELSEWHERE));

  private final List<String> warnings = new ArrayList<>();

  @Test
  void envReadFromAConfigMapOfTheFolderHasItsValueBesideTheFunctionsOwnValues() throws Exception {
    Function fn = function().env("PLAIN", "as written").envFromConfigMap("GREETING", "settings", "greeting").build();

    assertThat(release(fn).env()).containsExactlyInAnyOrderEntriesOf(Map.of("PLAIN", "as written",
        "GREETING", "Hallo"));
    assertThat(warnings).isEmpty();
  }

  @Test
  void aConfigMapServesTheFunctionsOfItsNamespaceWithDefaultForNone() throws Exception {
    Function inShop = function().inNamespace("shop").envFromConfigMap("CURRENCY", "shop-settings", "currency").build();
    Function inDefault = function().envFromConfigMap("CURRENCY", "shop-settings", "currency").build();

    assertThat(release(inShop).env()).containsEntry("CURRENCY", "EUR");
    assertThatThrownBy(() -> release(inDefault)).isInstanceOf(LocalException.class)
        .hasMessage("env CURRENCY reads ConfigMap shop-settings, which the folder does not declare in namespace"
            + " default; Kubernetes would not start the container either (CreateContainerConfigError): declare it,"
            + " or mark the reference optional: true");
  }

  @Test
  void aMissingKeyIsRefusedNamingTheVariableTheConfigMapItsFileAndTheKey() {
    Function fn = function().envFromConfigMap("FAREWELL", "settings", "farewell").build();

    assertThatThrownBy(() -> release(fn)).isInstanceOf(LocalException.class)
        .hasMessage("env FAREWELL reads key farewell of ConfigMap settings (functions/settings.yaml:1), which has no"
            + " such key in data; Kubernetes would not start the container either (CreateContainerConfigError): add"
            + " the key, or mark the reference optional: true");
  }

  @Test
  void aKeyOfBinaryDataIsNotReadIntoEnvAsTheKubeletDoesNot() {
    Function fn = function().envFromConfigMap("LOGO", "settings", "logo").build();

    assertThatThrownBy(() -> release(fn)).isInstanceOf(LocalException.class)
        .hasMessageContaining("env LOGO reads key logo of ConfigMap settings (functions/settings.yaml:1), which has"
            + " it in binaryData, and env is read from data only");
  }

  @Test
  void anOptionalReferenceThatFindsNothingLeavesTheVariableUnset() throws Exception {
    Function fn = function().build();
    fn.getSpec().setEnv(List.of(optional("NO_MAP", "absent", "greeting"), optional("NO_KEY", "settings", "absent"),
        optional("FOUND", "settings", "greeting")));

    assertThat(release(fn).env()).containsExactlyEntriesOf(Map.of("FOUND", "Hallo"));
    assertThat(warnings).isEmpty();
  }

  @Test
  void aSecretIsLeftUnsetWithAWarning() throws Exception {
    Function fn = function().build();
    fn.getSpec().setEnv(List.of(new EnvVarBuilder().withName("TOKEN").withNewValueFrom()
        .withNewSecretKeyRef("token", "api", false).endValueFrom().build()));

    assertThat(release(fn).env()).isEmpty();
    assertThat(warnings).containsExactly("env TOKEN reads a Secret, which local mode has not; it is left unset");
  }

  @Test
  void aChangedConfigMapValueIsANewReleaseOfTheSameBuild() throws Exception {
    Function fn = function().envFromConfigMap("GREETING", "settings", "greeting").build();
    FolderConfigMaps edited = FolderConfigMaps.of(List.of(new DeclaredConfigMap("functions/settings.yaml", 1,
        new ConfigMapBuilder().withNewMetadata().withName("settings").endMetadata()
            .withData(Map.of("greeting", "Servus")).build())));

    LocalRelease before = release(fn);
    LocalRelease after = LocalRelease.of(fn, plan(fn), edited, warnings);

    assertThat(after.key()).isEqualTo(before.key());
    assertThat(after.sameAs(before)).as("a new env starts a new process").isFalse();
  }

  private static TestFunction function() {
    return TestFunction.inline().named("hello").inNamespace(null).uid(null)
        .code("module.exports = { main: () => process.env.GREETING };\n");
  }

  private static io.fabric8.kubernetes.api.model.EnvVar optional(String name, String configMap, String key) {
    return new EnvVarBuilder().withName(name).withNewValueFrom().withNewConfigMapKeyRef(key, configMap, true)
        .endValueFrom().build();
  }

  private LocalRelease release(Function fn) throws Exception {
    return LocalRelease.of(fn, plan(fn), FOLDER, warnings);
  }

  private static FunctionBuildPlan plan(Function fn) throws Exception {
    return FunctionBuildPlan.ofInline(fn, BuildSettings.defaults());
  }
}
