package io.gitfn.api.function;

/** The reasons of a Function's conditions, as Kyma writes them. */
public final class ConditionReason {

  // ConfigurationReady
  public static final String INVALID_FUNCTION_SPEC = "InvalidFunctionSpec";
  public static final String CONFIG_MAP_CREATED = "ConfigMapCreated";
  public static final String CONFIG_MAP_UPDATED = "ConfigMapUpdated";
  public static final String SOURCE_UPDATED = "SourceUpdated";
  public static final String SOURCE_UPDATE_FAILED = "SourceUpdateFailed";
  /** gitfn's addition: the pinned revision has no known-good image in the history. */
  public static final String PINNED_REVISION_UNKNOWN = "PinnedRevisionUnknown";
  /**
   * gitfn's addition: the Git source's revision did not verify with the keys of {@code gitfn.io/verify-secret}, so
   * it is not built; the running version stays. The message starts with the failure, such as
   * {@code UnsignedCommit}.
   */
  public static final String SOURCE_VERIFICATION_FAILED = "SourceVerificationFailed";

  // BuildReady
  public static final String JOB_CREATED = "JobCreated";
  public static final String JOB_UPDATED = "JobUpdated";
  public static final String JOBS_DELETED = "JobsDeleted";
  public static final String JOB_RUNNING = "JobRunning";
  public static final String JOB_FINISHED = "JobFinished";
  public static final String JOB_FAILED = "JobFailed";
  /** gitfn's addition: the build waits for a slot, as the cluster-wide build limit allows only so many. */
  public static final String JOB_QUEUED = "JobQueued";
  /**
   * gitfn's addition: a buildless Function builds nothing (BuildReady True), its Pods install the dependencies of
   * the source ConfigMap as they start. Kyma's buildless mode has no BuildReady condition at all.
   */
  public static final String NO_BUILD_NEEDED = "NoBuildNeeded";
  /**
   * gitfn's addition, layered builder: the image was assembled in-process from layers the registry already held (or
   * the history holds it by digest); no build Pod ran for it.
   */
  public static final String LAYERS_REUSED = "LayersReused";
  /** gitfn's addition, layered builder: the controller asks the registry for the layers, or pushes the image. */
  public static final String IMAGE_ASSEMBLING = "ImageAssembling";
  /** gitfn's addition, layered builder: the registry failed, refused or did not answer in time; the old Pods serve on. */
  public static final String REGISTRY_FAILED = "RegistryFailed";

  // Running
  public static final String DEPLOYMENT_CREATED = "DeploymentCreated";
  public static final String DEPLOYMENT_UPDATED = "DeploymentUpdated";
  public static final String DEPLOYMENT_WAITING = "DeploymentWaiting";
  // Kyma's docs say MinimumReplicasUnavailable; its code writes this, and so does gitfn.
  public static final String MIN_REPLICAS_NOT_AVAILABLE = "MinReplicasNotAvailable";
  public static final String DEPLOYMENT_READY = "DeploymentReady";
  public static final String DEPLOYMENT_FAILED = "DeploymentFailed";
  /**
   * gitfn's addition: a new Pod's container keeps crashing (it restarted {@code CrashLoopBackOff} three times); the
   * old Pods serve on.
   */
  public static final String CRASH_LOOPING = "CrashLooping";
  /**
   * gitfn's addition: the new version failed to roll out, so gitfn put the last version that ran back; the failed
   * content key is not tried again until Git moves to another or a {@code gitfn.io/requested-at} asks.
   */
  public static final String ROLLED_BACK = "RolledBack";
  /** gitfn's addition: a buildless Pod's init container could not install the dependencies; the old Pods serve on. */
  public static final String DEPENDENCY_INSTALL_FAILED = "DependencyInstallFailed";
  public static final String SERVICE_CREATED = "ServiceCreated";
  public static final String SERVICE_UPDATED = "ServiceUpdated";
  public static final String SERVICE_FAILED = "ServiceFailed";
  public static final String HORIZONTAL_POD_AUTOSCALER_CREATED = "HorizontalPodAutoscalerCreated";
  public static final String HORIZONTAL_POD_AUTOSCALER_UPDATED = "HorizontalPodAutoscalerUpdated";

  /** Unknown while a step that failed in a way nobody foresaw is retried with backoff; the message says which. */
  public static final String RECONCILIATION_FAILED = io.gitfn.api.Conditions.RECONCILIATION_FAILED;

  private ConditionReason() {}
}
