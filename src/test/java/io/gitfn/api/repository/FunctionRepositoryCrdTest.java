package io.gitfn.api.repository;

import static io.gitfn.api.Crds.messagesAt;
import static io.gitfn.api.Crds.onlyVersion;
import static io.gitfn.api.Crds.schemaAt;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionVersion;
import io.gitfn.api.Crds;
import org.junit.jupiter.api.Test;

/** The FunctionRepository CRD validates refs and paths at admission and defaults the polling settings. */
class FunctionRepositoryCrdTest {

  private final CustomResourceDefinition crd = Crds.load("functionrepositories.gitfn.io");
  private final CustomResourceDefinitionVersion version = onlyVersion(crd);

  @Test
  void isANamespacedGitfnResourceWithAStatusSubresource() {
    assertThat(crd.getSpec().getGroup()).isEqualTo("gitfn.io");
    assertThat(crd.getSpec().getScope()).isEqualTo("Namespaced");
    assertThat(crd.getSpec().getNames().getKind()).isEqualTo("FunctionRepository");
    assertThat(crd.getSpec().getNames().getShortNames()).containsExactly("fnrepo");
    assertThat(version.getName()).isEqualTo("v1alpha1");
    assertThat(version.getSubresources().getStatus()).isNotNull();
    assertThat(version.getSubresources().getScale()).isNull();
  }

  @Test
  void printsUrlRevisionReadyAndAge() {
    assertThat(version.getAdditionalPrinterColumns())
        .extracting("name", "jsonPath", "type")
        .containsExactly(
            tuple("URL", ".spec.url", "string"),
            tuple("Revision", ".status.lastAppliedRevision", "string"),
            tuple("Ready", ".status.conditions[?(@.type=='Ready')].status", "string"),
            tuple("Age", ".metadata.creationTimestamp", "date"));
  }

  @Test
  void requiresAUrlAndARef() {
    assertThat(schemaAt(crd, "spec").getRequired()).containsExactlyInAnyOrder("url", "ref");
    assertThat(messagesAt(crd, "spec.url")).containsExactly(
        "url must start with https://, http://, ssh:// or git://, or be scp-like (git@host:path)",
        "url must not carry credentials: put them in the Secret that secretRef names");
  }

  @Test
  void pollsNoMoreOftenThanEveryTenSeconds() {
    assertThat(messagesAt(crd, "spec.interval")).containsExactly("interval must be at least 10s");
  }

  @Test
  void followsExactlyOneOfBranchTagSemverOrCommit() {
    assertThat(messagesAt(crd, "spec.ref")).containsExactly(
        "Set exactly one of branch, tag, semver or commit", "tagPrefix applies only to semver");
    assertThat(messagesAt(crd, "spec.ref.commit")).containsExactly("commit must be a full 40-character lowercase hex SHA");
  }

  @Test
  void readsARelativePathThatStaysInsideTheRepository() {
    assertThat(schemaAt(crd, "spec.path").getDefault().asText()).isEqualTo(".");
    assertThat(messagesAt(crd, "spec.path")).containsExactly(
        "path must be relative to the repository root", "path must not contain a '..' segment");
  }

  @Test
  void defaultsPollingAndPruning() {
    assertThat(schemaAt(crd, "spec.interval").getDefault().asText()).isEqualTo("1m");
    assertThat(schemaAt(crd, "spec.interval").getPattern()).isEqualTo(FunctionRepositorySpec.DURATION_PATTERN);
    assertThat(schemaAt(crd, "spec.timeout").getDefault().asText()).isEqualTo("60s");
    assertThat(schemaAt(crd, "spec.timeout").getPattern()).isEqualTo(FunctionRepositorySpec.DURATION_PATTERN);
    assertThat(schemaAt(crd, "spec.prune").getDefault().asBoolean()).isTrue();
    assertThat(schemaAt(crd, "spec.allowEmpty").getDefault().asBoolean()).isFalse();
    assertThat(schemaAt(crd, "spec.suspend").getDefault().asBoolean()).isFalse();
  }

  @Test
  void namesItsSecretsByReference() {
    assertThat(schemaAt(crd, "spec.secretRef").getRequired()).containsExactly("name");
    assertThat(schemaAt(crd, "spec.webhook").getRequired()).containsExactly("secretRef");
  }

  @Test
  void keepsAtMostTenHistoryEntriesAndTheLastWebhook() {
    assertThat(schemaAt(crd, "status.history").getMaxItems())
        .isEqualTo((long) FunctionRepositoryStatus.HISTORY_LIMIT);
    assertThat(schemaAt(crd, "status.history.[]").getProperties())
        .containsKeys("revision", "time", "outcome", "created", "updated", "deleted");
    assertThat(schemaAt(crd, "status.lastWebhook").getProperties())
        .containsKeys("forge", "deliveryId", "time", "revision");
    assertThat(schemaAt(crd, "status").getProperties()).containsKeys(
        "observedGeneration", "conditions", "lastFetchedRevision", "lastAppliedRevision",
        "lastAttemptedRevision", "inventory");
  }

  @Test
  void statusConditionsMergeByTypeUnderServerSideApply() {
    var conditions = schemaAt(crd, "status.conditions");
    assertThat(conditions.getXKubernetesListType()).isEqualTo("map");
    assertThat(conditions.getXKubernetesListMapKeys()).containsExactly("type");
    assertThat(conditions.getItems().getSchema().getRequired()).contains("type", "status");
  }
}
