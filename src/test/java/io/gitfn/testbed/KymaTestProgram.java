package io.gitfn.testbed;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Kyma's Function test program ({@code src/test/kyma/serverless}, built by {@code scripts/build-testbed.sh} into
 * {@code kyma-tests-<key>}), run for one suite against a cluster. {@code SUITES.md} beside its sources says what
 * each suite does and needs.
 *
 * <p>The program's exit code alone does not say a suite passed: a suite name it does not know skips every suite and
 * exits 0. So {@link Run#passed} asks for the program's own {@code Test suite succeeded: <scenario>-<suite>} line
 * too. It has no overall time limit; {@link #run} imposes one and kills the program when it is over.
 */
public final class KymaTestProgram {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Path SOURCES = Path.of("src/test/kyma/serverless");

  private final Path binary;

  private KymaTestProgram(Path binary) {
    this.binary = binary;
  }

  /** Finds the build of the vendored sources as they are now, or fails with the command that makes it. */
  public static KymaTestProgram locate() {
    Path binary = TestBedBinaries.cacheDir().resolve("kyma-tests-" + key(TestBedBinaries.projectDir()
        .resolve(SOURCES))).resolve("kyma-serverless-tests");
    if (!Files.isExecutable(binary)) {
      throw new IllegalStateException(binary + " is missing: `bash scripts/build-testbed.sh kyma-tests` builds "
          + "Kyma's test program from " + SOURCES + " (CI does so before the tests)");
    }
    return new KymaTestProgram(binary);
  }

  /**
   * The build's folder key, as the build script makes it: the SHA-256 of {@code sha256sum}'s listing of every
   * {@code .go}, {@code go.mod} and {@code go.sum} file, sorted by path, first 16 hex digits.
   */
  static String key(Path sources) {
    try (Stream<Path> files = Files.walk(sources)) {
      List<String> paths = files.filter(Files::isRegularFile)
          .map(file -> "./" + sources.relativize(file).toString().replace('\\', '/'))
          .filter(path -> path.endsWith(".go") || path.endsWith("/go.mod") || path.endsWith("/go.sum"))
          .sorted((a, b) -> Arrays.compareUnsigned(a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8)))
          .toList();
      StringBuilder listing = new StringBuilder();
      for (String path : paths) {
        listing.append(sha256(Files.readAllBytes(sources.resolve(path.substring(2))))).append("  ").append(path)
            .append('\n');
      }
      return sha256(listing.toString().getBytes(StandardCharsets.UTF_8)).substring(0, 16);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read Kyma's test program's sources under " + sources, e);
    }
  }

  /**
   * Runs {@code scenario --test-suite suite} with {@code environment} (the program's {@code APP_TEST_*} settings
   * and {@code KUBECONFIG}) and an empty {@code HOME}, writing its log to {@code log}; kills it after
   * {@code limit}.
   */
  public Run run(String scenario, String suite, Map<String, String> environment, Path log, Duration limit)
      throws IOException, InterruptedException {
    Files.createDirectories(log.getParent());
    Path home = Files.createTempDirectory("kyma-tests-home");
    ProcessBuilder builder = new ProcessBuilder(binary.toString(), scenario, "--test-suite", suite)
        .redirectErrorStream(true)
        .redirectOutput(log.toFile());
    builder.environment().keySet().removeIf(name -> name.startsWith("APP_") || name.equals("KUBECONFIG"));
    builder.environment().put("HOME", home.toString());
    builder.environment().putAll(environment);
    long started = System.nanoTime();
    Process process = builder.start();
    boolean finished = process.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS);
    if (!finished) {
      process.descendants().forEach(ProcessHandle::destroyForcibly);
      process.destroyForcibly().waitFor();
    }
    Duration took = Duration.ofNanos(System.nanoTime() - started);
    return new Run(scenario + "-" + suite, finished ? process.exitValue() : -1, !finished, took, log,
        Files.readAllLines(log, StandardCharsets.UTF_8));
  }

  /**
   * One run of a suite.
   *
   * @param test the program's name for it, {@code <scenario>-<suite>}
   * @param exitCode the program's, or -1 when it was killed
   */
  public record Run(String test, int exitCode, boolean timedOut, Duration took, Path log, List<String> lines) {

    /** Exit 0 and the program's own line saying this suite succeeded. */
    public boolean passed() {
      return exitCode == 0 && messages().contains("Test suite succeeded: " + test);
    }

    /** The {@code msg} of every JSON log line, in order; lines that are not JSON as they are. */
    public List<String> messages() {
      List<String> messages = new ArrayList<>();
      for (String line : lines) {
        messages.add(field(line, "msg").orElse(line));
      }
      return messages;
    }

    /** What a reader needs when it failed: how it ended and the error lines, each with its runtime and step. */
    public String summary() {
      StringBuilder summary = new StringBuilder(test).append(": ")
          .append(timedOut ? "killed after " + took.toSeconds() + " s" : "exit " + exitCode + " after "
              + took.toSeconds() + " s")
          .append(", log ").append(log).append('\n');
      for (String line : lines) {
        if (field(line, "level").filter(level -> level.equals("error") || level.equals("fatal")).isPresent()) {
          summary.append("  ").append(field(line, "runtime").map(r -> "[" + r + "] ").orElse(""))
              .append(field(line, "step").map(s -> "(" + s + ") ").orElse(""))
              .append(field(line, "msg").orElse(line)).append('\n');
        }
      }
      return summary.toString();
    }

    private static Optional<String> field(String line, String name) {
      if (!line.startsWith("{")) {
        return Optional.empty();
      }
      try {
        JsonNode value = JSON.readTree(line).get(name);
        return value == null ? Optional.empty() : Optional.of(value.asText());
      } catch (IOException e) {
        return Optional.empty();
      }
    }
  }

  private static String sha256(byte[] bytes) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
