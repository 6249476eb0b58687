package io.gitfn.api.function;

/** The condition types of a Function, as Kyma names them. A Function is ready when all three are True. */
public final class ConditionType {

  public static final String CONFIGURATION_READY = "ConfigurationReady";
  public static final String BUILD_READY = "BuildReady";
  public static final String RUNNING = "Running";

  private ConditionType() {}
}
