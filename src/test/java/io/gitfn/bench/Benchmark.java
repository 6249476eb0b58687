package io.gitfn.bench;

import java.util.List;

/** A named measurement run by {@code mvn -B -Pbench verify -Dbench=<name>}. */
public interface Benchmark {

  String name();

  /** What the benchmark measures, one line, for the table's heading. */
  String description();

  /**
   * Every row the table has, in the order {@link #run} reports them. Declared without running anything, so that
   * docs/benchmarks.md can be compared with them.
   */
  List<Row> rows();

  List<Metric> run() throws Exception;
}
