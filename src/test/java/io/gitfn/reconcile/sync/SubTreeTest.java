package io.gitfn.reconcile.sync;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SubTreeTest {

  @Test
  void fieldsTheServerOrOthersAddedAreFine() {
    assertThat(SubTree.contains(
            Map.of("runtime", "nodejs22", "replicas", 1, "source", Map.of("inline", Map.of("source", "x"))),
            Map.of("runtime", "nodejs22", "source", Map.of("inline", Map.of("source", "x")))))
        .isTrue();
  }

  @Test
  void aChangedOrMissingValueIsNotContained() {
    assertThat(SubTree.contains(Map.of("runtime", "nodejs20"), Map.of("runtime", "nodejs22"))).isFalse();
    assertThat(SubTree.contains(Map.of(), Map.of("runtime", "nodejs22"))).isFalse();
    assertThat(SubTree.contains(null, Map.of("runtime", "nodejs22"))).isFalse();
    assertThat(SubTree.contains("text", Map.of("runtime", "nodejs22"))).isFalse();
  }

  @Test
  void listsAreOwnedWholeSoAnExtraElementIsDrift() {
    List<Object> wanted = List.of(Map.of("name", "A", "value", "1"));

    assertThat(SubTree.contains(List.of(Map.of("name", "A", "value", "1")), wanted)).isTrue();
    assertThat(SubTree.contains(List.of(Map.of("name", "A", "value", "1"), Map.of("name", "B")), wanted))
        .isFalse();
    assertThat(SubTree.contains(List.of(Map.of("name", "A", "value", "2")), wanted)).isFalse();
    assertThat(SubTree.contains(List.of(), wanted)).isFalse();
  }

  @Test
  void defaultsInsideListElementsAreFine() {
    assertThat(SubTree.contains(
            List.of(Map.of("name", "data", "secretName", "s", "defaultMode", 420)),
            List.of(Map.of("name", "data", "secretName", "s"))))
        .isTrue();
  }

  @Test
  void numbersCompareByValueWhateverTheirJavaType() {
    assertThat(SubTree.contains(Map.of("replicas", 3L), Map.of("replicas", 3))).isTrue();
    assertThat(SubTree.contains(Map.of("cpu", 0.5d), Map.of("cpu", 0.50d))).isTrue();
    assertThat(SubTree.contains(Map.of("replicas", 4L), Map.of("replicas", 3))).isFalse();
    assertThat(SubTree.contains(Map.of("replicas", "3"), Map.of("replicas", 3))).isFalse();
  }
}
