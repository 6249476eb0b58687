package io.gitfn.api.repository;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Size;
import io.fabric8.kubernetes.api.model.Condition;
import io.gitfn.api.CommitStatusReport;
import io.gitfn.api.ConditionedStatus;
import io.gitfn.api.VerificationStatus;
import java.util.List;

/** What gitfn last did with a FunctionRepository: kstatus conditions, revisions, inventory and history. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class FunctionRepositoryStatus implements ConditionedStatus {

  /** The most entries {@link #getHistory()} keeps; the CRD enforces it too. */
  public static final int HISTORY_LIMIT = 10;

  /** The most entries {@link #getPending()} keeps; the Ready message counts them all. */
  public static final int PENDING_LIMIT = 20;

  @JsonPropertyDescription("The metadata.generation this status describes.")
  private Long observedGeneration;

  @JsonPropertyDescription("The conditions Ready, Reconciling and Stalled.")
  private List<Condition> conditions;

  @JsonPropertyDescription("The revision last fetched, like main@sha1:<40 hex>.")
  private String lastFetchedRevision;

  @JsonPropertyDescription("The revision whose Functions were last applied.")
  private String lastAppliedRevision;

  @JsonPropertyDescription("The revision last tried, whether or not it applied.")
  private String lastAttemptedRevision;

  @Size(max = PENDING_LIMIT)
  @JsonPropertyDescription("The Functions of the applied revision that do not run it yet, or failed to; failed"
      + " ones first. Empty once the revision runs.")
  private List<PendingFunction> pending;

  @JsonPropertyDescription("The Functions this repository applied and owns.")
  private List<InventoryEntry> inventory;

  @JsonPropertyDescription("The last full sync (every Function of the applied revision compared with Git and the"
      + " cluster) that applied something or a new revision, generation or labels of this FunctionRepository. Until"
      + " the next full sync (an interval later, at least 10 minutes), a pass with nothing new only reports how the"
      + " Functions roll out. A full sync that finds nothing to change leaves it as it was.")
  private LastSync lastSync;

  @Size(max = HISTORY_LIMIT)
  @JsonPropertyDescription("The latest syncs, newest first.")
  private List<SyncRecord> history;

  @JsonPropertyDescription("The last webhook delivery that triggered this repository.")
  private WebhookReceipt lastWebhook;

  @JsonPropertyDescription("The last commit status sent to the forge, and how the forge took it.")
  private CommitStatusReport commitStatus;

  @JsonPropertyDescription("The last notification sent to spec.notification's URL, and how the endpoint took it.")
  private CommitStatusReport notification;

  @JsonPropertyDescription("The last value of the gitfn.io/requested-at annotation that was acted on.")
  private String lastHandledRequestedAt;

  @JsonPropertyDescription("The last revision whose signatures verified (spec.verify), and who signed it.")
  private VerificationStatus verification;

  @JsonPropertyDescription("The Secrets this repository decrypted from its applied revision and owns: pruned when"
      + " they leave Git. Names, files and recipients only, never a value.")
  private List<AppliedSecret> secrets;

  @JsonPropertyDescription("The ConfigMaps this repository applied from its applied revision and owns: pruned when"
      + " they leave Git.")
  private List<AppliedConfigMap> configMaps;

  @JsonPropertyDescription("The objects of other allowed kinds (routes: HTTPRoutes, Ingresses, APIRules) this"
      + " repository applied from its applied revision and owns: pruned when they leave Git (with spec.prune), deleted"
      + " with the repository.")
  private List<AppliedObject> objects;

  @JsonPropertyDescription("The previews of this repository's pull requests (spec.previews), by number.")
  private List<Preview> previews;

  @JsonPropertyDescription("When gitfn last read the forge's list of open pull requests for previews (RFC 3339).")
  private String pullRequestsListedAt;

  @JsonPropertyDescription("Why the last reading of the forge's open pull requests failed; unset when it did not.")
  private String pullRequestsListError;

  @JsonPropertyDescription("On a preview's repository: where the preview answers.")
  private String previewURL;

  public Long getObservedGeneration() {
    return observedGeneration;
  }

  public void setObservedGeneration(Long observedGeneration) {
    this.observedGeneration = observedGeneration;
  }

  public List<Condition> getConditions() {
    return conditions;
  }

  public void setConditions(List<Condition> conditions) {
    this.conditions = conditions;
  }

  public String getLastFetchedRevision() {
    return lastFetchedRevision;
  }

  public void setLastFetchedRevision(String lastFetchedRevision) {
    this.lastFetchedRevision = lastFetchedRevision;
  }

  public String getLastAppliedRevision() {
    return lastAppliedRevision;
  }

  public void setLastAppliedRevision(String lastAppliedRevision) {
    this.lastAppliedRevision = lastAppliedRevision;
  }

  public String getLastAttemptedRevision() {
    return lastAttemptedRevision;
  }

  public void setLastAttemptedRevision(String lastAttemptedRevision) {
    this.lastAttemptedRevision = lastAttemptedRevision;
  }

  public List<InventoryEntry> getInventory() {
    return inventory;
  }

  public void setInventory(List<InventoryEntry> inventory) {
    this.inventory = inventory;
  }

  public List<SyncRecord> getHistory() {
    return history;
  }

  public void setHistory(List<SyncRecord> history) {
    this.history = history;
  }

  public WebhookReceipt getLastWebhook() {
    return lastWebhook;
  }

  public void setLastWebhook(WebhookReceipt lastWebhook) {
    this.lastWebhook = lastWebhook;
  }

  public String getLastHandledRequestedAt() {
    return lastHandledRequestedAt;
  }

  public void setLastHandledRequestedAt(String lastHandledRequestedAt) {
    this.lastHandledRequestedAt = lastHandledRequestedAt;
  }

  public List<PendingFunction> getPending() {
    return pending;
  }

  public void setPending(List<PendingFunction> pending) {
    this.pending = pending;
  }

  public CommitStatusReport getCommitStatus() {
    return commitStatus;
  }

  public void setCommitStatus(CommitStatusReport commitStatus) {
    this.commitStatus = commitStatus;
  }

  public CommitStatusReport getNotification() {
    return notification;
  }

  public void setNotification(CommitStatusReport notification) {
    this.notification = notification;
  }

  public LastSync getLastSync() {
    return lastSync;
  }

  public void setLastSync(LastSync lastSync) {
    this.lastSync = lastSync;
  }

  public VerificationStatus getVerification() {
    return verification;
  }

  public void setVerification(VerificationStatus verification) {
    this.verification = verification;
  }

  public List<AppliedSecret> getSecrets() {
    return secrets;
  }

  public void setSecrets(List<AppliedSecret> secrets) {
    this.secrets = secrets;
  }

  public List<AppliedObject> getObjects() {
    return objects;
  }

  public void setObjects(List<AppliedObject> objects) {
    this.objects = objects;
  }

  public List<AppliedConfigMap> getConfigMaps() {
    return configMaps;
  }

  public void setConfigMaps(List<AppliedConfigMap> configMaps) {
    this.configMaps = configMaps;
  }

  public List<Preview> getPreviews() {
    return previews;
  }

  public void setPreviews(List<Preview> previews) {
    this.previews = previews;
  }

  public String getPullRequestsListedAt() {
    return pullRequestsListedAt;
  }

  public void setPullRequestsListedAt(String pullRequestsListedAt) {
    this.pullRequestsListedAt = pullRequestsListedAt;
  }

  public String getPreviewURL() {
    return previewURL;
  }

  public void setPreviewURL(String previewURL) {
    this.previewURL = previewURL;
  }

  public String getPullRequestsListError() {
    return pullRequestsListError;
  }

  public void setPullRequestsListError(String pullRequestsListError) {
    this.pullRequestsListError = pullRequestsListError;
  }
}
