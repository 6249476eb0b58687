package io.gitfn.api;

/** The server-side apply field managers gitfn writes with, which {@code managedFields} shows. */
public final class FieldManagers {

  /** A FunctionRepository's sync: the Functions' spec, labels and annotations that come from Git. */
  public static final String SYNC = "gitfn";

  /**
   * The Function controller: children and status. It is not {@link #SYNC}: the SDK applies the Function's finalizer
   * with it, and an apply under the sync's manager would drop the spec the sync owns.
   */
  public static final String FUNCTION_CONTROLLER = "gitfn-function-controller";

  /** Writes the FunctionRepositories gitfn makes for pull requests' previews. */
  public static final String PREVIEWS = "gitfn-previews";

  private FieldManagers() {}
}
