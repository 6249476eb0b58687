package io.gitfn.cli;

import java.util.ArrayList;
import java.util.List;

/** A unified diff of two lists of lines, as {@code diff -u} prints its hunks; small inputs only (quadratic). */
final class LineDiff {

  private LineDiff() {}

  /** The hunks, each starting with an {@code @@} line; empty when the lines are equal. */
  static List<String> unified(List<String> before, List<String> after, int context) {
    List<Edit> edits = edits(before, after);
    List<String> out = new ArrayList<>();
    int i = 0;
    while (i < edits.size()) {
      if (edits.get(i).kind == ' ') {
        i++;
        continue;
      }
      int start = Math.max(0, i - context);
      int last = i;
      // A hunk runs on while the next change is close enough that their contexts would touch.
      for (int next = nextChange(edits, last + 1); next >= 0 && next - last - 1 <= 2 * context;
          next = nextChange(edits, last + 1)) {
        last = next;
      }
      int end = Math.min(edits.size(), last + 1 + context);
      out.add(header(edits, start, end));
      for (int k = start; k < end; k++) {
        out.add(edits.get(k).kind + edits.get(k).line);
      }
      i = end;
    }
    return out;
  }

  private record Edit(char kind, String line, int beforeLine, int afterLine) {}

  private static List<Edit> edits(List<String> a, List<String> b) {
    int[][] common = new int[a.size() + 1][b.size() + 1];
    for (int x = a.size() - 1; x >= 0; x--) {
      for (int y = b.size() - 1; y >= 0; y--) {
        common[x][y] = a.get(x).equals(b.get(y)) ? common[x + 1][y + 1] + 1
            : Math.max(common[x + 1][y], common[x][y + 1]);
      }
    }
    List<Edit> edits = new ArrayList<>();
    int x = 0;
    int y = 0;
    while (x < a.size() || y < b.size()) {
      if (x < a.size() && y < b.size() && a.get(x).equals(b.get(y))) {
        edits.add(new Edit(' ', a.get(x), x++, y++));
      } else if (x == a.size() || (y < b.size() && common[x][y + 1] > common[x + 1][y])) {
        // On a tie the removal goes first, as diff -u prints a changed line.
        edits.add(new Edit('+', b.get(y), x, y++));
      } else {
        edits.add(new Edit('-', a.get(x), x++, y));
      }
    }
    return edits;
  }

  private static int nextChange(List<Edit> edits, int from) {
    for (int k = from; k < edits.size(); k++) {
      if (edits.get(k).kind != ' ') {
        return k;
      }
    }
    return -1;
  }

  private static String header(List<Edit> edits, int start, int end) {
    int removed = 0;
    int added = 0;
    for (int k = start; k < end; k++) {
      char kind = edits.get(k).kind;
      removed += kind == '+' ? 0 : 1;
      added += kind == '-' ? 0 : 1;
    }
    Edit first = edits.get(start);
    int from = removed == 0 ? first.beforeLine : first.beforeLine + 1;
    int to = added == 0 ? first.afterLine : first.afterLine + 1;
    return "@@ -" + from + "," + removed + " +" + to + "," + added + " @@";
  }
}
