package io.gitfn.build;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Runs a Dockerfile's instructions on this machine, without a container engine: each stage gets a scratch folder
 * that stands in for the image's root, absolute image paths are moved below it, and {@code RUN} uses the host's
 * tools (so the base image contributes its Node.js or Python, and nothing else). It knows the instructions gitfn's
 * templates use and refuses any other, so a template cannot grow a step that the rehearsal silently skips.
 *
 * <p>What it cannot show: kaniko's own behaviour, the base image's contents, and user switches ({@code USER} is
 * recorded, not applied).
 */
final class DockerfileRehearsal {

  /** The image the final stage made: its root folder, its ENV (image paths) and its command (image paths). */
  record Image(Path root, String baseImage, String user, String workdir, Map<String, String> env,
      List<String> command) {}

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Pattern VARIABLE = Pattern.compile("\\$\\{([A-Za-z_][A-Za-z0-9_]*)}");
  private static final Pattern ABSOLUTE_IN_COMMAND = Pattern.compile("(^|\\s|=)/");

  private final Path context;
  private final Path scratch;
  private final Map<String, String> buildArgs;
  private final Map<String, String> hostEnv;
  private final Path log;

  private final Map<String, String> args = new LinkedHashMap<>();
  private final Map<String, Stage> stages = new LinkedHashMap<>();
  private Stage stage;

  /**
   * @param context the build context as the Job's volume shows it
   * @param scratch an empty folder for the stages' roots
   * @param buildArgs the Job's {@code --build-arg}s
   * @param hostEnv what RUN sees besides the stage's ENV: the host's PATH and its way to the package registries
   */
  DockerfileRehearsal(Path context, Path scratch, Map<String, String> buildArgs, Map<String, String> hostEnv) {
    this.context = context;
    this.scratch = scratch;
    this.buildArgs = buildArgs;
    this.hostEnv = hostEnv;
    this.log = scratch.resolve("build.log");
  }

  private static final class Stage {
    final Path root;
    final String baseImage;
    final Map<String, String> env = new LinkedHashMap<>();
    String workdir = "/";
    String user = "root";
    List<String> entrypoint = List.of();
    List<String> cmd = List.of();

    Stage(Path root, String baseImage) {
      this.root = root;
      this.baseImage = baseImage;
    }
  }

  Image build(String dockerfile) throws IOException, InterruptedException {
    int number = 0;
    for (String raw : dockerfile.split("\n")) {
      String line = raw.strip();
      if (line.isEmpty() || line.startsWith("#")) {
        continue;
      }
      if (line.endsWith("\\")) {
        throw new IllegalArgumentException("line continuations are not rehearsed: " + line);
      }
      String[] parts = line.split("\\s+", 2);
      String rest = parts.length > 1 ? parts[1] : "";
      switch (parts[0]) {
        case "ARG" -> arg(rest);
        case "FROM" -> from(rest, number++);
        case "WORKDIR" -> workdir(rest);
        case "COPY" -> copy(rest);
        case "RUN" -> run(rest);
        case "ENV" -> env(rest);
        case "USER" -> current().user = rest;
        case "ENTRYPOINT" -> {
          current().entrypoint = execForm(rest);
          current().cmd = List.of(); // as Docker: a new ENTRYPOINT drops the CMD of the stage so far
        }
        case "CMD" -> current().cmd = execForm(rest);
        default -> throw new IllegalArgumentException("the rehearsal does not know the instruction: " + line);
      }
    }
    Stage last = current();
    List<String> command = new ArrayList<>(last.entrypoint);
    command.addAll(last.cmd);
    return new Image(last.root, last.baseImage, last.user, last.workdir, Map.copyOf(last.env), command);
  }

  /** An image path (absolute) below the scratch root that stands in for it. */
  static Path reroot(Path root, String imagePath) {
    if (!imagePath.startsWith("/")) {
      throw new IllegalArgumentException("not an absolute image path: " + imagePath);
    }
    return root.resolve(imagePath.substring(1));
  }

  /** An env value with its absolute image paths, alone or in a {@code :} list, moved below the root. */
  static String rerootValue(Path root, String value) {
    if (!value.startsWith("/")) {
      return value;
    }
    List<String> parts = new ArrayList<>();
    for (String part : value.split(":", -1)) {
      parts.add(part.startsWith("/") ? reroot(root, part).toString() : part);
    }
    return String.join(":", parts);
  }

  String buildLog() throws IOException {
    return Files.exists(log) ? Files.readString(log) : "";
  }

  private Stage current() {
    if (stage == null) {
      throw new IllegalArgumentException("an instruction before the first FROM");
    }
    return stage;
  }

  private void arg(String rest) {
    String[] nameValue = rest.split("=", 2);
    String name = nameValue[0];
    args.put(name, buildArgs.getOrDefault(name, nameValue.length > 1 ? nameValue[1] : ""));
  }

  private void from(String rest, int number) throws IOException {
    String[] words = rest.split("\\s+");
    if (!(words.length == 1 || words.length == 3 && words[1].equalsIgnoreCase("AS"))) {
      throw new IllegalArgumentException("FROM <image> [AS <name>] only: " + rest);
    }
    String image = substitute(words[0]);
    stage = new Stage(Files.createDirectories(scratch.resolve("stage-" + number)), image);
    stages.put(words.length == 3 ? words[2] : Integer.toString(number), stage);
  }

  private String substitute(String text) {
    Matcher m = VARIABLE.matcher(text);
    StringBuilder out = new StringBuilder();
    while (m.find()) {
      String value = args.get(m.group(1));
      if (value == null) {
        throw new IllegalArgumentException("${" + m.group(1) + "} is not a declared ARG");
      }
      m.appendReplacement(out, Matcher.quoteReplacement(value));
    }
    return m.appendTail(out).toString();
  }

  private void workdir(String path) throws IOException {
    Stage s = current();
    s.workdir = path.startsWith("/") ? path : s.workdir + "/" + path;
    Files.createDirectories(reroot(s.root, s.workdir));
  }

  private void env(String rest) {
    if (!rest.matches("[A-Za-z_][A-Za-z0-9_]*=\\S*")) {
      throw new IllegalArgumentException("ENV NAME=value (one, unquoted) only: " + rest);
    }
    String[] nameValue = rest.split("=", 2);
    current().env.put(nameValue[0], nameValue[1]);
  }

  private void copy(String rest) throws IOException {
    Stage s = current();
    List<String> words = new ArrayList<>(List.of(rest.split("\\s+")));
    Path sourceRoot = context;
    if (words.get(0).startsWith("--from=")) {
      Stage from = stages.get(words.remove(0).substring("--from=".length()));
      if (from == null) {
        throw new IllegalArgumentException("COPY --from names no earlier stage: " + rest);
      }
      sourceRoot = from.root;
    } else if (words.get(0).startsWith("--")) {
      throw new IllegalArgumentException("the rehearsal knows no COPY option but --from: " + rest);
    }
    if (words.size() < 2) {
      throw new IllegalArgumentException("COPY <src>... <dest>: " + rest);
    }
    String dest = words.remove(words.size() - 1);
    String imageDest = dest.startsWith("/") ? dest : s.workdir + "/" + dest;
    boolean intoFolder = dest.endsWith("/") || words.size() > 1;
    Path target = reroot(s.root, imageDest);
    for (String source : words) {
      Path from = sourceRoot == context ? contextFile(source) : reroot(sourceRoot, source);
      if (!Files.exists(from)) {
        throw new IllegalStateException("COPY " + source + ": no such file in the "
            + (sourceRoot == context ? "build context" : "stage"));
      }
      if (Files.isDirectory(from)) {
        copyTree(from, target); // as Docker: a folder's contents, not the folder
      } else {
        Path to = intoFolder ? target.resolve(from.getFileName().toString()) : target;
        Files.createDirectories(to.getParent());
        Files.copy(from, to, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.COPY_ATTRIBUTES);
      }
    }
  }

  private Path contextFile(String source) {
    if (source.startsWith("/") || source.contains("..")) {
      throw new IllegalArgumentException("a context source is relative and stays inside the context: " + source);
    }
    return context.resolve(source);
  }

  private static void copyTree(Path from, Path to) throws IOException {
    try (Stream<Path> walk = Files.walk(from)) {
      for (Path path : walk.toList()) {
        Path copy = to.resolve(from.relativize(path).toString());
        if (Files.isDirectory(path)) {
          Files.createDirectories(copy);
        } else {
          Files.createDirectories(copy.getParent());
          Files.copy(path, copy, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.COPY_ATTRIBUTES);
        }
      }
    }
  }

  private void run(String command) throws IOException, InterruptedException {
    if (command.startsWith("[")) {
      throw new IllegalArgumentException("RUN in shell form only: " + command);
    }
    // An absolute path would mean the host's file here and the image's there: the templates use WORKDIR instead.
    if (ABSOLUTE_IN_COMMAND.matcher(command).find()) {
      throw new IllegalArgumentException("RUN with an absolute path cannot be rehearsed: " + command);
    }
    Stage s = current();
    Map<String, String> env = new LinkedHashMap<>(hostEnv);
    s.env.forEach((name, value) -> env.put(name, rerootValue(s.root, value)));
    ProcessBuilder builder = new ProcessBuilder("sh", "-c", command).directory(reroot(s.root, s.workdir).toFile())
        .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
    builder.environment().clear();
    builder.environment().putAll(env);
    Files.writeString(log, "\n$ (" + s.workdir + ") " + command + "\n", StandardCharsets.UTF_8,
        java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.APPEND);
    int exit = builder.start().waitFor();
    if (exit != 0) {
      throw new IllegalStateException("RUN " + command + " exited with " + exit + ":\n" + tail(buildLog()));
    }
  }

  private static List<String> execForm(String rest) throws IOException {
    if (!rest.startsWith("[")) {
      throw new IllegalArgumentException("exec form (a JSON array) only: " + rest);
    }
    return JSON.readValue(rest, new TypeReference<List<String>>() {});
  }

  private static String tail(String text) {
    List<String> lines = text.lines().toList();
    return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
  }
}
