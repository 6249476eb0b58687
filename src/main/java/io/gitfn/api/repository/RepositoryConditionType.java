package io.gitfn.api.repository;

/** The kstatus-shaped condition types of a FunctionRepository. */
public final class RepositoryConditionType {

  public static final String READY = "Ready";
  public static final String RECONCILING = "Reconciling";
  public static final String STALLED = "Stalled";
  /** With {@code spec.verify}: whether the fetched revision's signatures verified, as Flux's GitRepository says. */
  public static final String SOURCE_VERIFIED = "SourceVerified";

  private RepositoryConditionType() {}
}
