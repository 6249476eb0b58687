package io.gitfn.docs;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.gitfn.api.repository.FunctionRepository;
import io.gitfn.api.repository.GitRef;
import io.gitfn.cli.Main;
import io.gitfn.manifest.InvalidManifestException;
import io.gitfn.manifest.ManifestOptions;
import io.gitfn.manifest.ManifestReader;
import io.gitfn.source.FolderTree;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.reflect.Field;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.yaml.snakeyaml.Yaml;
import picocli.CommandLine;
import picocli.CommandLine.ParseResult;

/**
 * Checks the command blocks and manifests of gitfn's Markdown docs against the code: gitfn command lines parse
 * with the real picocli tree (and the offline, side-effect-free ones run), {@code helm --set} keys exist in the
 * chart's values, Maven profiles exist in the pom and {@code -Dbench} names a benchmark, and Function and
 * FunctionRepository YAML reads. Commands for a cluster or the network are listed as not run.
 */
final class DocsChecker {

  /** What became of one command or manifest. */
  enum Outcome { PARSED, RAN, CHECKED, NOT_RUN, OPTED_OUT, IGNORED }

  record Finding(String where, String what, Outcome outcome) {}

  private static final Set<String> NOT_RUN = Set.of("kubectl", "kind", "k3d", "curl", "docker", "git", "helm",
      "openssl", "ssh-keygen", "sed", "cat", "gh", "glab", "tea");
  private static final Pattern PROFILE = Pattern.compile("^-P(.*)$");
  private static final Pattern HEREDOC = Pattern.compile("<<-?\\s*['\"]?([A-Za-z_][A-Za-z0-9_]*)['\"]?");
  private static final Pattern KIND = Pattern.compile("(?m)^kind:\\s*(Function|FunctionRepository)\\s*$");

  private final Path root;
  private final Path chartValues;
  private final Set<String> profiles;
  private final Set<String> benchmarks;
  private final List<String> failures = new ArrayList<>();
  private final List<Finding> findings = new ArrayList<>();

  DocsChecker(Path root, Path chartValues, Set<String> profiles, Set<String> benchmarks) {
    this.root = root;
    this.chartValues = chartValues;
    this.profiles = profiles;
    this.benchmarks = benchmarks;
  }

  /** A checker for the repository at {@code root}: its chart values, its pom's profiles, its benchmarks. */
  static DocsChecker forRepository(Path root) {
    return new DocsChecker(root, root.resolve("charts/gitfn/values.yaml"), pomProfiles(root.resolve("pom.xml")),
        benchmarkNames());
  }

  List<String> failures() {
    return failures;
  }

  List<Finding> findings() {
    return findings;
  }

  void check(DocBlocks.Block block) {
    switch (block.language()) {
      case "bash", "sh", "shell", "console" -> {
        ShellCommands.of(block).forEach(this::check);
        hereDocuments(block).forEach(this::checkYaml);
      }
      case "yaml", "yml" -> checkYaml(block);
      default -> { }
    }
  }

  void check(ShellCommands.Command command) {
    if (command.optOut() != null) {
      findings.add(new Finding(command.where(), command.text() + "  (" + command.optOut() + ")", Outcome.OPTED_OUT));
      return;
    }
    List<String> words = command.words();
    String program = command.program();
    if (program.equals("gitfn")) {
      checkGitfn(command, words.subList(1, words.size()));
    } else if (program.equals("java") && words.size() >= 3 && words.get(1).equals("-jar")
        && words.get(2).endsWith("gitfn.jar")) {
      checkGitfn(command, words.subList(3, words.size()));
    } else if (program.equals("mvn")) {
      checkMaven(command);
    } else if (program.equals("helm")) {
      checkHelm(command);
    } else if (NOT_RUN.contains(program)) {
      findings.add(new Finding(command.where(), command.text(), Outcome.NOT_RUN));
    } else {
      findings.add(new Finding(command.where(), command.text(), Outcome.IGNORED));
    }
  }

  // gitfn ---------------------------------------------------------------------------------------------------------

  private void checkGitfn(ShellCommands.Command command, List<String> args) {
    CommandLine cli = new CommandLine(new Main());
    ParseResult parsed;
    try {
      parsed = cli.parseArgs(args.toArray(String[]::new));
    } catch (CommandLine.ParameterException e) {
      fail(command, e.getMessage());
      return;
    }
    if (!runnable(parsed)) {
      findings.add(new Finding(command.where(), command.text(), Outcome.PARSED));
      return;
    }
    List<String> run = new ArrayList<>(args);
    ParseResult leaf = leaf(parsed);
    if (leaf.commandSpec().name().equals("render") && leaf.hasMatchedOption("--with-workloads")
        && !leaf.hasMatchedOption("--cache-dir")) {
      try {
        run.add("--cache-dir"); // mirrors of Git-sourced Functions go to a scratch folder, not the user's cache
        run.add(Files.createTempDirectory("gitfn-docs-cache").toString());
      } catch (IOException e) {
        throw new IllegalStateException(e);
      }
    }
    int code;
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    PrintStream stdout = System.out;
    PrintStream stderr = System.err;
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    try (PrintStream sink = new PrintStream(captured, true, StandardCharsets.UTF_8)) {
      System.setOut(sink);
      System.setErr(sink);
      code = new CommandLine(new Main()).setOut(new PrintWriter(out)).setErr(new PrintWriter(err))
          .execute(run.toArray(String[]::new));
    } finally {
      System.setOut(stdout);
      System.setErr(stderr);
    }
    if (code != 0) {
      String said = (err + captured.toString(StandardCharsets.UTF_8)).strip();
      fail(command, "exited " + code + (said.isEmpty() ? "" : ": " + said.lines().limit(5).toList()));
      return;
    }
    findings.add(new Finding(command.where(), command.text(), Outcome.RAN));
  }

  /** version, any --help, and render of a folder of this repository: offline and side-effect free. */
  private boolean runnable(ParseResult parsed) {
    ParseResult leaf = leaf(parsed);
    if (helpRequested(parsed)) {
      return true;
    }
    String name = leaf.commandSpec().name();
    if (name.equals("version")) {
      return true;
    }
    if (name.equals("render") && leaf.hasMatchedPositional(0)) {
      String source = leaf.matchedPositional(0).getValue().toString();
      return !source.contains("://") && !source.contains("@") && Files.isDirectory(root.resolve(source));
    }
    return false;
  }

  private static boolean helpRequested(ParseResult parsed) {
    for (ParseResult p = parsed; p != null; p = p.subcommand()) {
      if (p.isUsageHelpRequested() || p.isVersionHelpRequested()) {
        return true;
      }
    }
    return false;
  }

  private static ParseResult leaf(ParseResult parsed) {
    ParseResult leaf = parsed;
    while (leaf.subcommand() != null) {
      leaf = leaf.subcommand();
    }
    return leaf;
  }

  // mvn -----------------------------------------------------------------------------------------------------------

  private void checkMaven(ShellCommands.Command command) {
    int before = failures.size();
    List<String> words = command.words();
    for (int i = 1; i < words.size(); i++) {
      String word = words.get(i);
      String named = null;
      Matcher profile = PROFILE.matcher(word);
      if (profile.matches()) {
        named = profile.group(1).isEmpty() && i + 1 < words.size() ? words.get(++i) : profile.group(1);
      } else if (word.equals("--activate-profiles") && i + 1 < words.size()) {
        named = words.get(++i);
      }
      if (named != null) {
        for (String p : named.split(",")) {
          String id = p.replaceFirst("^[!?-]+", "");
          if (!profiles.contains(id)) {
            fail(command, "pom.xml has no profile `" + id + "`; it has " + profiles);
          }
        }
      }
      if (word.startsWith("-Dbench=")) {
        String bench = word.substring("-Dbench=".length());
        if (!placeholder(bench) && !benchmarks.contains(bench)) {
          fail(command, "there is no benchmark `" + bench + "`; there are " + benchmarks);
        }
      }
    }
    if (failures.size() == before) {
      findings.add(new Finding(command.where(), command.text(), Outcome.CHECKED));
    }
  }

  // helm ----------------------------------------------------------------------------------------------------------

  private void checkHelm(ShellCommands.Command command) {
    List<String> words = command.words();
    boolean ownChart = words.stream().anyMatch(w -> w.equals("charts/gitfn") || w.endsWith("/charts/gitfn")
        || w.equals("./charts/gitfn"));
    boolean installs = words.size() > 1 && Set.of("install", "upgrade", "template").contains(words.get(1));
    if (!ownChart || !installs) {
      findings.add(new Finding(command.where(), command.text(), Outcome.NOT_RUN));
      return;
    }
    List<String> keys = new ArrayList<>();
    for (int i = 2; i < words.size(); i++) {
      String word = words.get(i);
      String value = null;
      for (String option : List.of("--set", "--set-string", "--set-file", "--set-json")) {
        if (word.equals(option) && i + 1 < words.size()) {
          value = words.get(++i);
        } else if (word.startsWith(option + "=")) {
          value = word.substring(option.length() + 1);
        }
      }
      if (value != null) {
        for (String pair : value.split("(?<!\\\\),")) {
          keys.add(pair.split("=", 2)[0]);
        }
      }
    }
    if (!Files.isRegularFile(chartValues)) {
      fail(command, chartValues + " is missing, so its --set keys " + keys + " cannot be checked");
      return;
    }
    Object values;
    try {
      values = new Yaml().load(Files.readString(chartValues));
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
    int before = failures.size();
    for (String key : keys) {
      if (!hasKey(values, key)) {
        fail(command, "--set " + key + ": " + chartValues + " has no value `" + key + "`");
      }
    }
    if (failures.size() == before) {
      findings.add(new Finding(command.where(), command.text(), Outcome.CHECKED));
    }
  }

  @SuppressWarnings("unchecked")
  static boolean hasKey(Object values, String key) {
    Object node = values;
    for (String part : key.split("(?<!\\\\)\\.")) {
      String name = part.replace("\\.", ".").replaceAll("\\[\\d+]$", "");
      if (!(node instanceof Map<?, ?> map) || !map.containsKey(name)) {
        return false;
      }
      node = ((Map<String, Object>) map).get(name);
      if (part.matches(".*\\[\\d+]$") && node instanceof List<?> list) {
        node = list.isEmpty() ? null : list.get(0);
      }
    }
    return true;
  }

  /** The bodies of a shell block's here documents, as YAML blocks: {@code kubectl apply -f - <<EOF} manifests. */
  static List<DocBlocks.Block> hereDocuments(DocBlocks.Block block) {
    List<DocBlocks.Block> bodies = new ArrayList<>();
    List<String> lines = block.lines();
    for (int i = 0; i < lines.size(); i++) {
      Matcher start = HEREDOC.matcher(lines.get(i));
      if (start.find()) {
        int first = i + 1;
        int end = first;
        while (end < lines.size() && !lines.get(end).strip().equals(start.group(1))) {
          end++;
        }
        bodies.add(new DocBlocks.Block(block.file(), "yaml", block.firstLine() + first, lines.subList(first, end)));
        i = end;
      }
    }
    return bodies;
  }

  // YAML ----------------------------------------------------------------------------------------------------------

  private void checkYaml(DocBlocks.Block block) {
    List<String> lines = block.lines();
    int start = 0;
    for (int i = 0; i <= lines.size(); i++) {
      if (i == lines.size() || lines.get(i).strip().equals("---")) {
        checkDocument(block, start, String.join("\n", lines.subList(start, i)) + "\n");
        start = i + 1;
      }
    }
  }

  private void checkDocument(DocBlocks.Block block, int offset, String text) {
    Matcher kind = KIND.matcher(text);
    if (!kind.find()) {
      return;
    }
    String where = block.file() + ":" + (block.firstLine() + offset);
    if (kind.group(1).equals("FunctionRepository")) {
      checkRepository(where, text);
    } else {
      checkFunction(where, block.firstLine() + offset, text);
    }
  }

  private void checkRepository(String where, String text) {
    ObjectMapper yaml = new ObjectMapper(new YAMLFactory())
        .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, true);
    try {
      FunctionRepository repository = yaml.readValue(text, FunctionRepository.class);
      List<String> problems = new ArrayList<>();
      if (repository.getSpec() == null || repository.getSpec().getUrl() == null) {
        problems.add("spec.url is required");
      }
      GitRef ref = repository.getSpec() == null ? null : repository.getSpec().getRef();
      long refs = ref == null ? 0 : Stream.of(ref.getBranch(), ref.getTag(), ref.getSemver(), ref.getCommit())
          .filter(v -> v != null).count();
      if (refs != 1) {
        problems.add("spec.ref must name exactly one of branch, tag, semver or commit");
      }
      if (problems.isEmpty()) {
        findings.add(new Finding(where, "FunctionRepository " + repository.getMetadata().getName(), Outcome.CHECKED));
      } else {
        failures.add(where + ": FunctionRepository: " + String.join("; ", problems));
      }
    } catch (IOException e) {
      failures.add(where + ": FunctionRepository does not read: " + e.getMessage().lines().findFirst().orElse(""));
    }
  }

  private void checkFunction(String where, int firstLine, String text) {
    try {
      Path folder = Files.createTempDirectory("gitfn-docs-function");
      Files.writeString(folder.resolve("function.yaml"), text);
      new ManifestReader(ManifestOptions.defaults()).read(new FolderTree(folder), "", List.of());
      findings.add(new Finding(where, "Function manifest", Outcome.CHECKED));
    } catch (InvalidManifestException e) {
      e.errors().forEach(error -> failures.add(where + ": Function: " + error));
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  // ---------------------------------------------------------------------------------------------------------------

  private void fail(ShellCommands.Command command, String message) {
    failures.add(command.where() + ": `" + command.text() + "`: " + message);
  }

  private static boolean placeholder(String value) {
    return value.contains("<") || value.contains("$");
  }

  /** The summary the test prints: how many of each outcome, and every command that was not run. */
  String summary() {
    Map<Outcome, Integer> counts = new TreeMap<>();
    findings.forEach(f -> counts.merge(f.outcome(), 1, Integer::sum));
    StringBuilder text = new StringBuilder("Docs commands: ").append(counts).append('\n');
    for (Outcome shown : List.of(Outcome.NOT_RUN, Outcome.OPTED_OUT)) {
      text.append(shown == Outcome.NOT_RUN ? "Not run (they need a cluster, the network, a forge or change files):\n" : "Opted out:\n");
      findings.stream().filter(f -> f.outcome() == shown)
          .forEach(f -> text.append("  ").append(f.where()).append("  ").append(f.what()).append('\n'));
    }
    return text.toString();
  }

  static Set<String> pomProfiles(Path pom) {
    Set<String> ids = new LinkedHashSet<>();
    try {
      String xml = Files.readString(pom);
      int from = xml.indexOf("<profiles>");
      int to = xml.indexOf("</profiles>");
      if (from < 0 || to < 0) {
        return ids;
      }
      Matcher profile = Pattern.compile("<profile>\\s*<id>([^<]+)</id>").matcher(xml.substring(from, to));
      while (profile.find()) {
        ids.add(profile.group(1).strip());
      }
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
    return ids;
  }

  @SuppressWarnings("unchecked")
  static Set<String> benchmarkNames() {
    try {
      Class<?> bench = Class.forName("io.gitfn.bench.Bench");
      Field field = bench.getDeclaredField("BENCHMARKS");
      field.setAccessible(true);
      return new java.util.TreeSet<>(((Map<String, ?>) field.get(null)).keySet());
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("cannot read the benchmarks of io.gitfn.bench.Bench", e);
    }
  }
}
