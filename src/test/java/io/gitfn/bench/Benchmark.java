package io.gitfn.bench;

import java.util.List;

/** A named measurement run by {@code mvn -B -Pbench verify -Dbench=<name>}. */
public interface Benchmark {

  String name();

  /** What the benchmark measures, one line, for the table's heading. */
  String description();

  List<Metric> run() throws Exception;
}
