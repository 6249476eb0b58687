package io.gitfn.docs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** The fenced code blocks of Markdown files, each with its file, language and the line numbers of its lines. */
final class DocBlocks {

  /** One fenced block; {@code firstLine} is the 1-based line of its first content line. */
  record Block(String file, String language, int firstLine, List<String> lines) {

    String text() {
      return String.join("\n", lines) + "\n";
    }
  }

  private DocBlocks() {
  }

  /** README.md, gitops-examples/README.md and every Markdown file under docs/, relative to {@code root}. */
  static List<Path> documents(Path root) {
    List<Path> files = new ArrayList<>();
    for (String top : List.of("README.md", "gitops-examples/README.md")) {
      if (Files.isRegularFile(root.resolve(top))) {
        files.add(root.resolve(top));
      }
    }
    try (Stream<Path> docs = Files.walk(root.resolve("docs"))) {
      docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(files::add);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return files;
  }

  static List<Block> of(Path root, Path file) {
    try {
      return parse(root.relativize(file).toString(), Files.readAllLines(file));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Fences are three or more backticks, possibly indented (as in a list); the closing fence matches the opening. */
  static List<Block> parse(String file, List<String> text) {
    List<Block> blocks = new ArrayList<>();
    String fence = null;
    String language = null;
    int first = 0;
    String indent = "";
    List<String> lines = new ArrayList<>();
    for (int i = 0; i < text.size(); i++) {
      String line = text.get(i);
      String stripped = line.stripLeading();
      if (fence == null) {
        if (stripped.startsWith("```")) {
          int ticks = 0;
          while (ticks < stripped.length() && stripped.charAt(ticks) == '`') {
            ticks++;
          }
          fence = "`".repeat(ticks);
          language = stripped.substring(ticks).strip().split("\\s+")[0];
          indent = line.substring(0, line.length() - stripped.length());
          first = i + 2;
          lines = new ArrayList<>();
        }
      } else if (stripped.startsWith(fence) && stripped.substring(fence.length()).isBlank()) {
        blocks.add(new Block(file, language, first, List.copyOf(lines)));
        fence = null;
      } else {
        lines.add(line.startsWith(indent) ? line.substring(indent.length()) : line);
      }
    }
    return blocks;
  }
}
