package io.gitfn.api;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class LabelsTest {

  @Test
  void aRepositoryLabelIsItsNamespaceAndNameAtTheFirstDot() {
    assertThat(Labels.repository("shop", "infra.v2")).isEqualTo("shop.infra.v2");
    assertThat(Labels.repositoryOf("shop.infra.v2")).hasValue(new Labels.Repository("shop", "infra.v2"));
  }

  @Test
  void aValueWithoutBothPartsNamesNoRepository() {
    assertThat(Labels.repositoryOf("infra")).isEmpty();
    assertThat(Labels.repositoryOf(".infra")).isEmpty();
    assertThat(Labels.repositoryOf("shop.")).isEmpty();
    assertThat(Labels.repositoryOf(null)).isEmpty();
  }
}
