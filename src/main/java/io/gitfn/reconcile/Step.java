package io.gitfn.reconcile;

/**
 * One step of a reconcile pass: it brings one thing into line (the source tracked, the revision applied, the image
 * built) and records what it found in the pass's state. Its Javadoc says what it guarantees when it returns and what
 * it throws when it cannot.
 *
 * <p>A step may throw whatever it calls throws; the {@link StepRunner} is the one place that catches, and
 * {@link Failures#classify} decides what a failure means. A step may translate a typed exception of a library into a
 * {@link StepFailure} that names its own context (which revision, which field); it never swallows one.
 *
 * @param <S> the state of one pass of the kind
 */
@FunctionalInterface
public interface Step<S> {

  Result run(S state) throws Exception;

  /** How the step is named in a message: its class name without {@code Step}. */
  static String nameOf(Step<?> step) {
    String name = step.getClass().getSimpleName();
    return name.endsWith("Step") && name.length() > 4 ? name.substring(0, name.length() - 4) : name;
  }
}
