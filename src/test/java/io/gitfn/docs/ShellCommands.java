package io.gitfn.docs;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Splits the text of a shell block into simple commands, the way a reader copies them into bash: quotes may span
 * lines, a backslash continues a line, {@code && || | ;} separate commands, {@code #} starts a comment, and here
 * documents are skipped. Not a shell: enough of one for the blocks in gitfn's docs.
 */
final class ShellCommands {

  /**
   * One simple command.
   *
   * @param line the 1-based line of the Markdown file where it starts
   * @param words its words with quotes removed; {@code $(...)} and {@code $VAR} stay as written
   * @param text the command as written, on one line
   * @param optOut the reason after {@code # not checked:} on its line, or null
   */
  record Command(String file, int line, List<String> words, String text, String optOut) {

    String where() {
      return file + ":" + line;
    }

    String program() {
      return words.isEmpty() ? "" : words.get(0);
    }
  }

  private static final Pattern OPT_OUT = Pattern.compile("#\\s*not checked:\\s*(.+)$");
  private static final Pattern HEREDOC = Pattern.compile("<<-?\\s*['\"]?([A-Za-z_][A-Za-z0-9_]*)['\"]?");
  private static final Pattern ASSIGNMENT = Pattern.compile("^[A-Za-z_][A-Za-z0-9_]*=.*");

  private ShellCommands() {
  }

  /** The commands of a {@code bash}/{@code sh} block, or of a {@code console} block's {@code $ } lines. */
  static List<Command> of(DocBlocks.Block block) {
    List<String> lines = block.language().equals("console") ? promptLines(block.lines()) : block.lines();
    return scan(block.file(), block.firstLine(), lines);
  }

  /** A console block's commands: the lines after "$ ", and the lines they continue; other lines become blank. */
  static List<String> promptLines(List<String> lines) {
    List<String> out = new ArrayList<>();
    boolean continued = false;
    for (String line : lines) {
      if (continued) {
        out.add(line);
      } else if (line.startsWith("$ ")) {
        out.add(line.substring(2));
      } else {
        out.add("");
        continue;
      }
      continued = line.endsWith("\\");
    }
    return out;
  }

  static List<Command> scan(String file, int firstLine, List<String> lines) {
    List<Command> commands = new ArrayList<>();
    List<String> words = new ArrayList<>();
    StringBuilder word = null;
    StringBuilder text = new StringBuilder();
    int start = -1;
    String heredoc = null;
    List<Command> pendingOnLine = new ArrayList<>();
    char quote = 0;
    int depth = 0; // of $( ... )
    for (int n = 0; n < lines.size(); n++) {
      String line = lines.get(n);
      if (heredoc != null) {
        if (line.strip().equals(heredoc)) {
          heredoc = null;
        }
        continue;
      }
      Matcher optOut = OPT_OUT.matcher(line);
      String reason = optOut.find() ? optOut.group(1).strip() : null;
      Matcher doc = HEREDOC.matcher(line);
      String startsHeredoc = doc.find() && quote == 0 ? doc.group(1) : null;
      for (int i = 0; i < line.length(); i++) {
        char c = line.charAt(i);
        if (quote == 0 && depth == 0) {
          if (c == '\\' && i == line.length() - 1) {
            break; // continuation: the command goes on on the next line
          }
          if (c == '#' && word == null) {
            break; // a comment, to the end of the line
          }
          if (Character.isWhitespace(c)) {
            if (word != null) {
              words.add(word.toString());
              word = null;
            }
            text.append(c);
            continue;
          }
          if (c == ';' || c == '|' || c == '&') {
            if (c == '&' && (i + 1 >= line.length() || line.charAt(i + 1) != '&')) {
              // a lone & (background) or a redirect like 2>&1 stays part of the command
              word = word == null ? new StringBuilder() : word;
              word.append(c);
              text.append(c);
              continue;
            }
            if (word != null) {
              words.add(word.toString());
              word = null;
            }
            start = end(file, firstLine, start, words, text, commands, pendingOnLine);
            if (i + 1 < line.length() && line.charAt(i + 1) == c) {
              i++;
            }
            continue;
          }
        }
        if (start < 0) {
          start = n;
        }
        text.append(c);
        word = word == null ? new StringBuilder() : word;
        if (quote == 0) {
          if (c == '\'' || c == '"') {
            quote = c;
            continue;
          }
          if (c == '$' && i + 1 < line.length() && line.charAt(i + 1) == '(') {
            depth++;
            word.append("$(");
            text.append('(');
            i++;
            continue;
          }
          if (depth > 0 && c == ')') {
            depth--;
          }
          if (c == '\\' && i + 1 < line.length()) {
            i++;
            word.append(line.charAt(i));
            text.append(line.charAt(i));
            continue;
          }
          word.append(c);
        } else if (c == quote) {
          quote = 0;
        } else {
          if (quote == '"' && c == '\\' && i + 1 < line.length()) {
            i++;
            word.append(line.charAt(i));
            text.append(line.charAt(i));
            continue;
          }
          word.append(c);
        }
      }
      boolean continues = quote != 0 || depth > 0 || line.endsWith("\\");
      if (quote != 0 && word != null) {
        word.append('\n');
      }
      if (!continues) {
        if (word != null) {
          words.add(word.toString());
          word = null;
        }
        start = end(file, firstLine, start, words, text, commands, pendingOnLine);
        if (reason != null) {
          for (Command c : pendingOnLine) {
            commands.set(commands.indexOf(c), new Command(c.file(), c.line(), c.words(), c.text(), reason));
          }
        }
        pendingOnLine.clear();
        if (startsHeredoc != null) {
          heredoc = startsHeredoc;
        }
      } else {
        text.append(' ');
      }
    }
    if (word != null) {
      words.add(word.toString());
    }
    end(file, firstLine, start, words, text, commands, pendingOnLine);
    return commands;
  }

  private static int end(String file, int firstLine, int start, List<String> words, StringBuilder text,
      List<Command> commands, List<Command> onLine) {
    List<String> command = new ArrayList<>(words);
    while (!command.isEmpty() && ASSIGNMENT.matcher(command.get(0)).matches()) {
      command.remove(0); // FOO=bar cmd: the command is cmd
    }
    if (!command.isEmpty() && start >= 0) {
      Command c = new Command(file, firstLine + start, List.copyOf(command), text.toString().strip().replaceAll("\\s+", " "), null);
      commands.add(c);
      onLine.add(c);
    }
    words.clear();
    text.setLength(0);
    return -1;
  }
}
