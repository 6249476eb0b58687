package io.gitfn.cli;

import java.util.ArrayList;
import java.util.List;

/** Columns aligned as kubectl aligns them: left-justified, three spaces apart, the last one unpadded. */
final class Table {

  private static final int GAP = 3;

  private Table() {}

  static String render(List<String> header, List<List<String>> rows) {
    List<List<String>> lines = new ArrayList<>();
    lines.add(header);
    lines.addAll(rows);
    int[] widths = new int[header.size()];
    for (List<String> line : lines) {
      if (line.size() != header.size()) {
        throw new IllegalArgumentException("a row has " + line.size() + " cells for " + header.size() + " columns");
      }
      for (int i = 0; i < line.size(); i++) {
        widths[i] = Math.max(widths[i], line.get(i).length());
      }
    }
    StringBuilder text = new StringBuilder();
    for (List<String> line : lines) {
      for (int i = 0; i < line.size(); i++) {
        String cell = line.get(i);
        text.append(cell);
        if (i < line.size() - 1) {
          text.append(" ".repeat(widths[i] - cell.length() + GAP));
        }
      }
      text.append('\n');
    }
    return text.toString();
  }

  /** A cell for a value that may be missing, shown as kubectl shows one. */
  static String orNone(String value) {
    return value == null || value.isBlank() ? "<none>" : value;
  }

  /** The first line of {@code message}, cut to {@code max} characters with an ellipsis. */
  static String shorten(String message, int max) {
    if (message == null) {
      return "";
    }
    String line = message.strip().lines().findFirst().orElse("");
    boolean cut = line.length() > max || message.strip().contains("\n");
    if (line.length() > max) {
      line = line.substring(0, max - 1);
    }
    return cut ? line + "…" : line;
  }
}
