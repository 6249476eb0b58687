package io.gitfn.docs;

import static org.assertj.core.api.Assertions.assertThat;

import io.gitfn.bench.Bench;
import io.gitfn.bench.Benchmark;
import io.gitfn.bench.Row;
import io.gitfn.bench.RowMatch;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * docs/benchmarks.md cannot drift from the benchmarks: the table in each benchmark's section lists the rows the
 * benchmark declares ({@link Benchmark#rows()}), which are the rows a run prints, in their order, each with the
 * target the code checks. A part of the row above it, indented in the code, is written {@code … name} on the page.
 * The values are the page's, from the run it describes.
 */
class BenchmarkPagesTest {

  private static final Path PAGE = Path.of("").toAbsolutePath().resolve("docs/benchmarks.md");
  private static final String HEADER = "| metric | value | target |";

  @Test
  void everyBenchmarksTableListsItsDeclaredRowsAndTargets() throws IOException {
    List<String> page = Files.readAllLines(PAGE);
    List<String> problems = new ArrayList<>();
    for (Map.Entry<String, Benchmark> benchmark : Bench.benchmarks().entrySet()) {
      List<TableRow> table = table(page, benchmark.getKey());
      RowMatch match = RowMatch.of(benchmark.getValue().rows(), table.stream().map(TableRow::name).toList());
      match.problems().forEach(p -> problems.add(benchmark.getKey() + ": " + p));
      for (int i = 0; i < table.size(); i++) {
        Row row = match.matched().get(i);
        TableRow listed = table.get(i);
        if (row != null && !row.targetText().equals(listed.target())) {
          problems.add(benchmark.getKey() + ": '" + listed.name() + "' has the target " + listed.target()
              + " on the page and " + row.targetText() + " in the code");
        }
        if (listed.value().isEmpty()) {
          problems.add(benchmark.getKey() + ": '" + listed.name() + "' has no value on the page");
        }
      }
    }
    assertThat(problems).as("differences between %s and the benchmarks' rows", PAGE).isEmpty();
  }

  @Test
  void aRowIndentedInTheCodeIsWrittenWithAnEllipsis() {
    assertThat(TableRow.parse("| … fetch of the new commit, p50 | 19 ms | - |"))
        .isEqualTo(new TableRow("  fetch of the new commit, p50", "19 ms", "-"));
    assertThat(TableRow.parse("| first sync: writes | 1000 | = 1000 |"))
        .isEqualTo(new TableRow("first sync: writes", "1000", "= 1000"));
  }

  /** One row of a page's table, its name as the code writes it. */
  record TableRow(String name, String value, String target) {

    static TableRow parse(String line) {
      String[] cells = line.substring(1, line.length() - 1).split("\\|", -1);
      if (cells.length != 3) {
        throw new IllegalArgumentException("not a row of three cells: " + line);
      }
      String name = cells[0].strip();
      return new TableRow(name.startsWith("… ") ? "  " + name.substring(2) : name, cells[1].strip(),
          cells[2].strip());
    }
  }

  /** The rows of the one metric table in the section {@code ## name}. */
  private static List<TableRow> table(List<String> page, String name) {
    int section = page.indexOf("## " + name);
    assertThat(section).as("a section '## %s' in %s", name, PAGE).isNotNegative();
    int end = section + 1;
    while (end < page.size() && !page.get(end).startsWith("## ")) {
      end++;
    }
    List<String> lines = page.subList(section, end);
    assertThat(lines.stream().filter(HEADER::equals).count())
        .as("metric tables in the section '## %s'", name).isEqualTo(1);
    List<TableRow> rows = new ArrayList<>();
    for (int i = lines.indexOf(HEADER) + 2; i < lines.size() && lines.get(i).startsWith("|"); i++) {
      rows.add(TableRow.parse(lines.get(i)));
    }
    return rows;
  }
}
