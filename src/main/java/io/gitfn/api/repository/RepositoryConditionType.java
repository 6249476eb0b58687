package io.gitfn.api.repository;

/** The kstatus-shaped condition types of a FunctionRepository. */
public final class RepositoryConditionType {

  public static final String READY = "Ready";
  public static final String RECONCILING = "Reconciling";
  public static final String STALLED = "Stalled";

  private RepositoryConditionType() {}
}
