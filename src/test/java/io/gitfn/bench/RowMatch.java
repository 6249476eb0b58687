package io.gitfn.bench;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * How a list of row names, as a run reports them or docs/benchmarks.md lists them, lines up with a benchmark's
 * declared rows: in the same order, each single row once, a family's rows where the family is declared.
 *
 * @param matched for each name, the row it is, or null when it is none of the rows left at that point
 * @param problems what does not line up, one sentence each; empty when everything does
 */
public record RowMatch(List<Row> matched, List<String> problems) {

  public static RowMatch of(List<Row> rows, List<String> names) {
    List<Row> matched = new ArrayList<>();
    List<String> problems = new ArrayList<>();
    int at = 0;
    for (String name : names) {
      int row = at;
      while (row < rows.size() && !rows.get(row).names(name)) {
        row++;
      }
      if (row == rows.size()) {
        matched.add(null);
        problems.add("'" + name + "' is not a declared row, or not in the declared order");
        continue;
      }
      missing(rows.subList(at, row), problems);
      matched.add(rows.get(row));
      at = rows.get(row).isFamily() ? row : row + 1;
    }
    missing(rows.subList(at, rows.size()), problems);
    return new RowMatch(Collections.unmodifiableList(matched), List.copyOf(problems));
  }

  private static void missing(List<Row> skipped, List<String> problems) {
    skipped.stream().filter(r -> !r.isFamily()).forEach(r -> problems.add("'" + r.name() + "' is missing"));
  }
}
