package io.gitfn.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class LineDiffTest {

  @Test
  void equalLinesHaveNoHunks() {
    assertThat(LineDiff.unified(List.of("a", "b"), List.of("a", "b"), 3)).isEmpty();
  }

  @Test
  void aChangedLineIsRemovedAndAddedWithContextAround() {
    List<String> before = List.of("1", "2", "3", "4", "5", "6", "7", "8", "9");
    List<String> after = List.of("1", "2", "3", "4", "five", "6", "7", "8", "9");

    assertThat(LineDiff.unified(before, after, 2))
        .containsExactly("@@ -3,5 +3,5 @@", " 3", " 4", "-5", "+five", " 6", " 7");
  }

  @Test
  void distantChangesMakeTwoHunksAndCloseOnesOne() {
    List<String> before = List.of("a", "b", "c", "d", "e", "f", "g", "h", "i", "j");
    List<String> after = List.of("A", "b", "c", "d", "e", "f", "g", "h", "i", "J");

    assertThat(LineDiff.unified(before, after, 1))
        .containsExactly("@@ -1,2 +1,2 @@", "-a", "+A", " b", "@@ -9,2 +9,2 @@", " i", "-j", "+J");
    assertThat(LineDiff.unified(before, after, 4)).filteredOn(l -> l.startsWith("@@")).hasSize(1);
  }

  @Test
  void pureAdditionsAndRemovals() {
    assertThat(LineDiff.unified(List.of("a"), List.of("a", "b"), 3)).containsExactly("@@ -1,1 +1,2 @@", " a", "+b");
    assertThat(LineDiff.unified(List.of("a", "b"), List.of(), 3)).containsExactly("@@ -1,2 +0,0 @@", "-a", "-b");
  }
}
