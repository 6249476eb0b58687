package io.gitfn.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class TableTest {

  @Test
  void alignsColumnsThreeSpacesApartAndLeavesTheLastUnpadded() {
    String table = Table.render(List.of("NAME", "READY", "AGE"),
        List.of(List.of("infra", "True", "3m"), List.of("a-much-longer-name", "False", "45s")));

    assertThat(table).isEqualTo("""
        NAME                 READY   AGE
        infra                True    3m
        a-much-longer-name   False   45s
        """);
  }

  @Test
  void printsTheHeaderAloneForNoRows() {
    assertThat(Table.render(List.of("A", "B"), List.of())).isEqualTo("A   B\n");
  }

  @Test
  void refusesARowOfTheWrongWidth() {
    assertThatThrownBy(() -> Table.render(List.of("A", "B"), List.of(List.of("only one"))))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void shortensToTheFirstLineAndTheWidth() {
    assertThat(Table.shorten("applied main@sha1:abc", 60)).isEqualTo("applied main@sha1:abc");
    assertThat(Table.shorten("revision is invalid:\nfunctions/a.yaml:1: ...", 60)).isEqualTo("revision is invalid:…");
    assertThat(Table.shorten("x".repeat(80), 10)).isEqualTo("xxxxxxxxx…").hasSize(10);
    assertThat(Table.shorten(null, 10)).isEmpty();
  }

  @Test
  void showsAMissingValueAsNone() {
    assertThat(Table.orNone(null)).isEqualTo("<none>");
    assertThat(Table.orNone("")).isEqualTo("<none>");
    assertThat(Table.orNone("functions")).isEqualTo("functions");
  }
}
