package io.gitfn.bench;

import java.io.Writer;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What {@code gitfn up} prints, kept line by line for the figures it reports (install and start times, the
 * Function process's port) and echoed to standard output with a prefix, so a run's log shows what happened.
 */
final class ProgressLines extends Writer {

  private final String prefix;
  private final StringBuilder partial = new StringBuilder();
  private final List<String> lines = new ArrayList<>();

  ProgressLines(String prefix) {
    this.prefix = prefix;
  }

  @Override
  public synchronized void write(char[] text, int offset, int length) {
    for (int i = offset; i < offset + length; i++) {
      if (text[i] == '\n') {
        String line = partial.toString();
        partial.setLength(0);
        lines.add(line);
        System.out.println(prefix + line);
      } else {
        partial.append(text[i]);
      }
    }
  }

  /** How many lines there are so far: a mark for {@link #last}. */
  synchronized int count() {
    return lines.size();
  }

  /** Group 1 of {@code pattern} in each line after {@code from} that matches it, in order. */
  synchronized List<String> all(Pattern pattern, int from) {
    List<String> found = new ArrayList<>();
    for (String line : lines.subList(from, lines.size())) {
      Matcher m = pattern.matcher(line);
      if (m.find()) {
        found.add(m.group(1));
      }
    }
    return found;
  }

  /** Group 1 of {@code pattern} in the last line after {@code from} that matches it. */
  Optional<String> last(Pattern pattern, int from) {
    List<String> found = all(pattern, from);
    return found.isEmpty() ? Optional.empty() : Optional.of(found.get(found.size() - 1));
  }

  synchronized String tail(int count) {
    return String.join("\n", lines.subList(Math.max(0, lines.size() - count), lines.size()));
  }

  @Override
  public void flush() {}

  @Override
  public void close() {}
}
