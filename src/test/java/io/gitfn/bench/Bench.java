package io.gitfn.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Runs one benchmark by name, prints its table and writes {@code <out>/<name>.json} shaped as
 * {@code {"machine": {...}, "metrics": [{"name", "value", "unit", "target", "met"}]}}, where {@code target} is
 * the target as the table prints it ({@code "≤ 500 ms"}, {@code "= 0"}) or null, and {@code met} null without one.
 *
 * <p>Started by the {@code bench} Maven profile in a JVM of its own, so that a benchmark's servers stop
 * with it.
 */
public final class Bench {

  private static final Map<String, Benchmark> BENCHMARKS =
      Stream.<Benchmark>of(new TestBedBenchmark(), new SourcesBenchmark(), new SyncBenchmark(),
              new ControllerBenchmark(), new LocalBenchmark(), new RealNodeLayeredBenchmark(),
              new ScaleBenchmark(), new KymaSideBySideBenchmark(), new TrustBenchmark(), new PreviewsBenchmark())
          .collect(Collectors.toMap(Benchmark::name, Function.identity(), (a, b) -> a, LinkedHashMap::new));

  public static void main(String[] args) throws Exception {
    if (args.length != 2 || !BENCHMARKS.containsKey(args[0])) {
      System.err.printf(
          "Unknown benchmark '%s'. Run one of %s with: mvn -B -Pbench verify -Dbench=<name>%n",
          args.length > 0 ? args[0] : "", BENCHMARKS.keySet());
      System.exit(2);
    }
    Benchmark benchmark = BENCHMARKS.get(args[0]);
    List<Metric> metrics = benchmark.run();
    System.out.println(table(benchmark, metrics));
    Path out = Path.of(args[1]).resolve(benchmark.name() + ".json");
    Files.createDirectories(out.getParent());
    new ObjectMapper()
        .enable(SerializationFeature.INDENT_OUTPUT)
        .writeValue(out.toFile(), report(metrics));
    System.out.println("Wrote " + out);
    List<String> undeclared = RowMatch.of(benchmark.rows(), metrics.stream().map(Metric::name).toList()).problems();
    if (!undeclared.isEmpty()) {
      // The declarations are what docs/benchmarks.md is checked against (BenchmarkPagesTest).
      System.err.println(benchmark.name() + " did not report the rows it declares: " + undeclared);
    }
    // Servers a benchmark started may keep non-daemon threads; the figures are written.
    System.exit(!undeclared.isEmpty() || metrics.stream().anyMatch(m -> Boolean.FALSE.equals(m.met())) ? 1 : 0);
  }

  /** Every benchmark, by name; constructing one runs nothing. */
  public static Map<String, Benchmark> benchmarks() {
    return Collections.unmodifiableMap(BENCHMARKS);
  }

  static String table(Benchmark benchmark, List<Metric> metrics) {
    int width = Math.max(6, metrics.stream().mapToInt(m -> m.name().length()).max().orElse(6));
    StringBuilder table = new StringBuilder();
    table.append(benchmark.name()).append(": ").append(benchmark.description()).append('\n');
    String row = "%-" + width + "s  %12s  %-4s  %16s  %s%n";
    table.append(String.format(row, "metric", "value", "unit", "target", "met"));
    for (Metric m : metrics) {
      table.append(
          String.format(
              row,
              m.name(),
              String.format("%.1f", m.value()),
              m.unit(),
              m.target() == null ? "-" : m.target().text(m.unit()),
              m.met() == null ? "-" : m.met() ? "yes" : "NO"));
    }
    return table.toString();
  }

  static Map<String, Object> report(List<Metric> metrics) {
    List<Map<String, Object>> rows = new ArrayList<>();
    for (Metric m : metrics) {
      Map<String, Object> row = new LinkedHashMap<>();
      row.put("name", m.name());
      row.put("value", m.value());
      row.put("unit", m.unit());
      row.put("target", m.target() == null ? null : m.target().text(m.unit()));
      row.put("met", m.met());
      rows.add(row);
    }
    Map<String, Object> report = new LinkedHashMap<>();
    report.put("machine", machine());
    report.put("metrics", rows);
    return report;
  }

  static Map<String, Object> machine() {
    Map<String, Object> machine = new LinkedHashMap<>();
    machine.put("date", Instant.now().toString());
    machine.put("os", System.getProperty("os.name") + " " + System.getProperty("os.version"));
    machine.put("arch", System.getProperty("os.arch"));
    machine.put("cpus", Runtime.getRuntime().availableProcessors());
    if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
      machine.put("memoryBytes", os.getTotalMemorySize());
    }
    machine.put("java", System.getProperty("java.vm.name") + " " + System.getProperty("java.version"));
    return machine;
  }

  private Bench() {}
}
