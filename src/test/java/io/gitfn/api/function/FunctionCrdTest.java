package io.gitfn.api.function;

import static io.gitfn.api.Crds.messagesAt;
import static io.gitfn.api.Crds.onlyVersion;
import static io.gitfn.api.Crds.schemaAt;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionVersion;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceSubresourceScale;
import io.gitfn.api.Crds;
import org.junit.jupiter.api.Test;

/** The Function CRD declares what a Kyma Function CRD declares, so Kyma YAML and tooling work unchanged. */
class FunctionCrdTest {

  private final CustomResourceDefinition crd = Crds.load("functions.serverless.kyma-project.io");
  private final CustomResourceDefinitionVersion version = onlyVersion(crd);

  @Test
  void isKymasNamespacedFunctionInV1alpha2() {
    assertThat(crd.getSpec().getGroup()).isEqualTo("serverless.kyma-project.io");
    assertThat(crd.getSpec().getScope()).isEqualTo("Namespaced");
    assertThat(crd.getSpec().getNames().getKind()).isEqualTo("Function");
    assertThat(crd.getSpec().getNames().getPlural()).isEqualTo("functions");
    assertThat(crd.getSpec().getNames().getShortNames()).containsExactly("fn");
    assertThat(crd.getSpec().getNames().getCategories()).containsExactly("kyma-serverless");
    assertThat(version.getName()).isEqualTo("v1alpha2");
    assertThat(version.getServed()).isTrue();
    assertThat(version.getStorage()).isTrue();
  }

  @Test
  void hasStatusAndScaleSubresourcesSoAnHpaCanTargetTheFunction() {
    assertThat(version.getSubresources().getStatus()).isNotNull();
    CustomResourceSubresourceScale scale = version.getSubresources().getScale();
    assertThat(scale.getSpecReplicasPath()).isEqualTo(".spec.replicas");
    assertThat(scale.getStatusReplicasPath()).isEqualTo(".status.replicas");
    assertThat(scale.getLabelSelectorPath()).isEqualTo(".status.podSelector");
  }

  @Test
  void printsConfiguredBuiltRunningRuntimeCommitPinnedAndAgeInThatOrder() {
    assertThat(version.getAdditionalPrinterColumns())
        .extracting("name", "jsonPath", "type")
        .containsExactly(
            tuple("Configured", ".status.conditions[?(@.type=='ConfigurationReady')].status", "string"),
            tuple("Built", ".status.conditions[?(@.type=='BuildReady')].status", "string"),
            tuple("Running", ".status.conditions[?(@.type=='Running')].status", "string"),
            tuple("Runtime", ".spec.runtime", "string"),
            tuple("Commit", ".status.commit", "string"),
            tuple("Pinned", ".status.pinnedRevision", "string"),
            tuple("Age", ".metadata.creationTimestamp", "date"));
  }

  @Test
  void defaultsReplicasToOneAndAllowsZero() {
    assertThat(schemaAt(crd, "spec.replicas").getDefault().asInt()).isEqualTo(1);
    assertThat(schemaAt(crd, "spec.replicas").getMinimum()).isEqualTo(0.0);
  }

  @Test
  void requiresRuntimeAndSourceAndOffersKymasRuntimes() {
    assertThat(schemaAt(crd, "spec").getRequired()).contains("runtime", "source");
    assertThat(schemaAt(crd, "spec.runtime").getEnum())
        .extracting(node -> node.asText())
        .containsExactly("nodejs20", "nodejs22", "nodejs24", "python312");
  }

  @Test
  void allowsExactlyOneSource() {
    assertThat(messagesAt(crd, "spec.source")).containsExactly("Use GitRepository or Inline source");
    assertThat(schemaAt(crd, "spec.source.inline").getRequired()).containsExactly("source");
    assertThat(schemaAt(crd, "spec.source.inline.source").getMinLength()).isEqualTo(1L);
  }

  @Test
  void requiresANonBlankBaseDirReferenceAndSecretNameForGitSources() {
    assertThat(schemaAt(crd, "spec.source.gitRepository").getRequired()).containsExactly("url");
    assertThat(messagesAt(crd, "spec.source.gitRepository")).containsExactly(
        "BaseDir is required and cannot be empty", "Reference is required and cannot be empty");
    assertThat(messagesAt(crd, "spec.source.gitRepository.auth.secretName"))
        .containsExactly("SecretName is required and cannot be empty");
    assertThat(schemaAt(crd, "spec.source.gitRepository.auth.type").getEnum())
        .extracting(node -> node.asText())
        .containsExactly("basic", "key");
  }

  @Test
  void rejectsTheEnvNamesTheRuntimeReserves() {
    assertThat(messagesAt(crd, "spec.env")).singleElement().asString()
        .startsWith("Following envs are reserved and cannot be used")
        .contains("FUNC_RUNTIME", "FUNC_HANDLER", "FUNC_PORT", "MOD_NAME", "NODE_PATH", "PYTHONPATH");
  }

  @Test
  void takesAProfileOrResourcesButNotBoth() {
    assertThat(messagesAt(crd, "spec.resourceConfiguration.function")).containsExactly(
        "Use profile or resources", "Invalid profile, please use one of: ['XS','S','M','L','XL']");
    assertThat(messagesAt(crd, "spec.resourceConfiguration.build")).containsExactly(
        "Use profile or resources", "Invalid profile, please use one of: ['local-dev','slow','normal','fast']");
  }

  @Test
  void boundsScaleConfig() {
    assertThat(messagesAt(crd, "spec.scaleConfig"))
        .containsExactly("minReplicas should be less than or equal maxReplicas");
    assertThat(schemaAt(crd, "spec.scaleConfig").getRequired()).containsExactlyInAnyOrder("minReplicas", "maxReplicas");
    assertThat(schemaAt(crd, "spec.scaleConfig.minReplicas").getMinimum()).isEqualTo(1.0);
    assertThat(schemaAt(crd, "spec.scaleConfig.maxReplicas").getMinimum()).isEqualTo(1.0);
  }

  @Test
  void keepsTheServerlessPrefixForTheController() {
    assertThat(messagesAt(crd, "spec.labels")).contains(
        "Labels has key starting with serverless.kyma-project.io/ which is not allowed");
    assertThat(messagesAt(crd, "spec.annotations")).containsExactly(
        "Annotations has key starting with serverless.kyma-project.io/ which is not allowed",
        "Annotations has key proxy.istio.io/config which is not allowed");
  }

  @Test
  void takesKymasSecurityContextsAsTheCoreTypes() {
    assertThat(schemaAt(crd, "spec.podSecurityContext.runAsUser").getType()).isEqualTo("integer");
    assertThat(schemaAt(crd, "spec.containerSecurityContext.capabilities.drop").getType()).isEqualTo("array");
    assertThat(schemaAt(crd, "status.podSecurityContext.seccompProfile.type").getType()).isEqualTo("string");
    assertThat(schemaAt(crd, "status.gitRepository.commit").getType()).isEqualTo("string");
    assertThat(schemaAt(crd, "status.functionAnnotations").getAdditionalProperties()).isNotNull();
  }

  @Test
  void rejectsTheDeprecatedTemplate() {
    assertThat(messagesAt(crd, "spec.template")).containsExactly(
        "Not supported: Use spec.labels and spec.annotations to label and/or annotate Function's Pods.");
  }

  @Test
  void boundsSecretMounts() {
    assertThat(schemaAt(crd, "spec.secretMounts.[]").getRequired())
        .containsExactlyInAnyOrder("secretName", "mountPath");
    assertThat(schemaAt(crd, "spec.secretMounts.[].secretName").getMinLength()).isEqualTo(1L);
    assertThat(schemaAt(crd, "spec.secretMounts.[].secretName").getMaxLength()).isEqualTo(253L);
    assertThat(schemaAt(crd, "spec.secretMounts.[].mountPath").getMinLength()).isEqualTo(1L);
  }

  @Test
  void keepsAtMostTenHistoryEntries() {
    assertThat(schemaAt(crd, "status.history").getMaxItems()).isEqualTo((long) FunctionStatus.HISTORY_LIMIT);
    assertThat(schemaAt(crd, "status.history.[]").getProperties())
        .containsKeys("revision", "contentKey", "image", "time", "outcome");
  }

  @Test
  void statusConditionsMergeByTypeUnderServerSideApply() {
    var conditions = schemaAt(crd, "status.conditions");
    assertThat(conditions.getXKubernetesListType()).isEqualTo("map");
    assertThat(conditions.getXKubernetesListMapKeys()).containsExactly("type");
    assertThat(conditions.getItems().getSchema().getRequired()).contains("type", "status");
  }
}
