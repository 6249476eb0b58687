package io.gitfn.reconcile.sync;

import io.gitfn.api.function.Function;
import io.gitfn.api.function.TestFunction;
import io.gitfn.source.Revision;
import io.gitfn.source.TestRevision;

/**
 * Left only for bench/SyncBenchmark, which another change owns: it builds through {@link TestFunction#declared}
 * and {@link TestRevision#revision}. Switch SyncBenchmark to those two and delete this class.
 */
public final class FunctionFixture {

  private final TestFunction function;

  private FunctionFixture(String name) {
    this.function = TestFunction.declared(name);
  }

  public static FunctionFixture inline(String name) {
    return new FunctionFixture(name);
  }

  public static Revision revision(int commit) {
    return TestRevision.revision(commit);
  }

  public FunctionFixture env(String name, String value) {
    function.env(name, value);
    return this;
  }

  public Function build() {
    return function.build();
  }
}
