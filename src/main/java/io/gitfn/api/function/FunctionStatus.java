package io.gitfn.api.function;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Size;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.PodSecurityContext;
import io.fabric8.kubernetes.api.model.SecurityContext;
import io.fabric8.kubernetes.model.annotation.LabelSelector;
import io.fabric8.kubernetes.model.annotation.StatusReplicas;
import io.gitfn.api.CommitStatusReport;
import io.gitfn.api.ConditionedStatus;
import io.gitfn.api.VerificationStatus;
import java.util.List;
import java.util.Map;

/**
 * What gitfn last observed of a Function: Kyma's status fields, standard conditions, and the GitOps additions
 * ({@code observedGeneration}, {@code image}, {@code sourceRevision}, {@code history}).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class FunctionStatus implements ConditionedStatus {

  /** The most entries {@link #getHistory()} keeps; the CRD enforces it too. */
  public static final int HISTORY_LIMIT = 10;

  @JsonPropertyDescription("The runtime of the last processed spec.")
  private FunctionRuntime runtime;

  @JsonPropertyDescription("The base image of the last build, or the runtimeImageOverride.")
  private String runtimeImage;

  @JsonPropertyDescription("The resource profile of the Function's Pods, or custom for explicit resources.")
  private String functionResourceProfile;

  @JsonPropertyDescription("Deprecated: Kyma's build Job's resource profile; gitfn does not write it.")
  private String buildResourceProfile;

  @JsonPropertyDescription("The conditions ConfigurationReady, BuildReady and Running.")
  private List<Condition> conditions;

  @JsonPropertyDescription("The annotations of the Function's Pod template, as last applied.")
  private Map<String, String> functionAnnotations;

  @JsonPropertyDescription("The security context the Function's Pods run with: spec.podSecurityContext merged with "
      + "gitfn's defaults.")
  private PodSecurityContext podSecurityContext;

  @JsonPropertyDescription("The security context the Function's container runs with: spec.containerSecurityContext "
      + "merged with gitfn's defaults.")
  private SecurityContext containerSecurityContext;

  @JsonPropertyDescription("The Git source of a Git-sourced Function at the last check: url, baseDir, reference and "
      + "commit.")
  private GitRepositoryStatus gitRepository;

  @JsonPropertyDescription("Deprecated: see gitRepository. The baseDir of the last source check.")
  private String baseDir;

  @JsonPropertyDescription("Deprecated: see gitRepository. The reference of the last source check.")
  private String reference;

  @JsonPropertyDescription("Deprecated: see gitRepository. The commit SHA the running image was built from.")
  private String commit;

  @StatusReplicas
  @JsonPropertyDescription("The number of non-terminated Pods of the Function's Deployment.")
  private Integer replicas;

  @LabelSelector
  @JsonPropertyDescription("The selector of the Function's Pods, as a string.")
  private String podSelector;

  @JsonPropertyDescription("The metadata.generation this status describes.")
  private Long observedGeneration;

  @JsonPropertyDescription("The image the Function runs.")
  private String image;

  @JsonPropertyDescription("The source revision the image was built from, like main@sha1:<40 hex>.")
  private String sourceRevision;

  @JsonPropertyDescription("The revision the Function is pinned to by `gitfn rollback function --pin`, if any: "
      + "it runs that revision's image until unpinned, whatever its spec says.")
  private String pinnedRevision;

  @JsonPropertyDescription("Set while gitfn has rolled back a version that failed to roll out: which key failed and"
      + " why, and which runs instead. The failed key is not tried again until the spec moves to another key or a"
      + " new gitfn.io/requested-at asks.")
  private AutoRollback rollback;

  @JsonPropertyDescription("For a Git source with the gitfn.io/commit-status-secret annotation: the last commit"
      + " status sent to the forge, and how the forge took it.")
  private CommitStatusReport commitStatus;

  @JsonPropertyDescription("For a Git source with the gitfn.io/verify-mode or gitfn.io/verify-secret annotation: the"
      + " last revision whose signatures verified. Range verifies the commits after it, so a restarted controller"
      + " or a new leader starts from the same commit.")
  private VerificationStatus verification;

  @Size(max = HISTORY_LIMIT)
  @JsonPropertyDescription("The latest builds and rollouts, newest first.")
  private List<FunctionHistoryEntry> history;

  public FunctionRuntime getRuntime() {
    return runtime;
  }

  public void setRuntime(FunctionRuntime runtime) {
    this.runtime = runtime;
  }

  public String getRuntimeImage() {
    return runtimeImage;
  }

  public void setRuntimeImage(String runtimeImage) {
    this.runtimeImage = runtimeImage;
  }

  public String getFunctionResourceProfile() {
    return functionResourceProfile;
  }

  public void setFunctionResourceProfile(String functionResourceProfile) {
    this.functionResourceProfile = functionResourceProfile;
  }

  public String getBuildResourceProfile() {
    return buildResourceProfile;
  }

  public void setBuildResourceProfile(String buildResourceProfile) {
    this.buildResourceProfile = buildResourceProfile;
  }

  public List<Condition> getConditions() {
    return conditions;
  }

  public void setConditions(List<Condition> conditions) {
    this.conditions = conditions;
  }

  public Map<String, String> getFunctionAnnotations() {
    return functionAnnotations;
  }

  public void setFunctionAnnotations(Map<String, String> functionAnnotations) {
    this.functionAnnotations = functionAnnotations;
  }

  public PodSecurityContext getPodSecurityContext() {
    return podSecurityContext;
  }

  public void setPodSecurityContext(PodSecurityContext podSecurityContext) {
    this.podSecurityContext = podSecurityContext;
  }

  public SecurityContext getContainerSecurityContext() {
    return containerSecurityContext;
  }

  public void setContainerSecurityContext(SecurityContext containerSecurityContext) {
    this.containerSecurityContext = containerSecurityContext;
  }

  public GitRepositoryStatus getGitRepository() {
    return gitRepository;
  }

  public void setGitRepository(GitRepositoryStatus gitRepository) {
    this.gitRepository = gitRepository;
  }

  public String getBaseDir() {
    return baseDir;
  }

  public void setBaseDir(String baseDir) {
    this.baseDir = baseDir;
  }

  public String getReference() {
    return reference;
  }

  public void setReference(String reference) {
    this.reference = reference;
  }

  public String getCommit() {
    return commit;
  }

  public void setCommit(String commit) {
    this.commit = commit;
  }

  public Integer getReplicas() {
    return replicas;
  }

  public void setReplicas(Integer replicas) {
    this.replicas = replicas;
  }

  public String getPodSelector() {
    return podSelector;
  }

  public void setPodSelector(String podSelector) {
    this.podSelector = podSelector;
  }

  public Long getObservedGeneration() {
    return observedGeneration;
  }

  public void setObservedGeneration(Long observedGeneration) {
    this.observedGeneration = observedGeneration;
  }

  public String getImage() {
    return image;
  }

  public void setImage(String image) {
    this.image = image;
  }

  public String getSourceRevision() {
    return sourceRevision;
  }

  public void setSourceRevision(String sourceRevision) {
    this.sourceRevision = sourceRevision;
  }

  public List<FunctionHistoryEntry> getHistory() {
    return history;
  }

  public void setHistory(List<FunctionHistoryEntry> history) {
    this.history = history;
  }

  public String getPinnedRevision() {
    return pinnedRevision;
  }

  public void setPinnedRevision(String pinnedRevision) {
    this.pinnedRevision = pinnedRevision;
  }

  public AutoRollback getRollback() {
    return rollback;
  }

  public void setRollback(AutoRollback rollback) {
    this.rollback = rollback;
  }

  public VerificationStatus getVerification() {
    return verification;
  }

  public void setVerification(VerificationStatus verification) {
    this.verification = verification;
  }

  public CommitStatusReport getCommitStatus() {
    return commitStatus;
  }

  public void setCommitStatus(CommitStatusReport commitStatus) {
    this.commitStatus = commitStatus;
  }
}
