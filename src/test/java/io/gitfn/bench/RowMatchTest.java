package io.gitfn.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** A run, or the page, lists the declared rows in their order: every single row, and a family's rows if any. */
class RowMatchTest {

  @Test
  void aRunMustReportEverySingleRowInOrderAndAFamilyOnlyWhenItHasMembers() {
    Row first = Row.millis("first");
    Row writes = Row.family("  ", "[A-Z]+ .+", "n");
    Row last = Row.count("last", Target.exactly(0));
    List<Row> rows = List.of(first, writes, last);

    assertThat(RowMatch.of(rows, List.of("first", "  PATCH jobs", "  POST events", "last")).problems())
        .isEmpty();
    assertThat(RowMatch.of(rows, List.of("first", "last")).problems()).isEmpty();
    assertThat(RowMatch.of(rows, List.of("last", "first")).problems())
        .containsExactly("'first' is missing", "'first' is not a declared row, or not in the declared order");
    assertThat(RowMatch.of(rows, List.of("first", "  patch jobs", "last")).problems())
        .containsExactly("'  patch jobs' is not a declared row, or not in the declared order");
  }
}
