package io.gitfn.api.repository;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;
import java.util.List;

/** Which repository, ref and folder to read Functions from, how often, and what to do with what left Git. */
@JsonInclude(JsonInclude.Include.NON_NULL)
// A tag is what Tag and TagAndHEAD verify, and only ref.tag and ref.semver resolve to one.
@ValidationRule(value = "!has(self.verify) || !has(self.verify.mode) || !(self.verify.mode in ['Tag', 'TagAndHEAD'])"
    + " || has(self.ref.tag) || has(self.ref.semver)",
    message = "verify.mode Tag and TagAndHEAD need ref.tag or ref.semver: a branch or commit has no tag to verify")
public class FunctionRepositorySpec {

  /** A Go-style duration made of whole or decimal numbers with ms, s, m or h units, such as 1m30s. */
  public static final String DURATION_PATTERN = "^([0-9]+([.][0-9]+)?(ms|s|m|h))+$";

  @Required
  @Size(max = 2048)
  @ValidationRule(value = "self.matches('^(https?|ssh|git)://.+') || self.matches('^[^@/:]+@[^/:]+:.+')",
      message = "url must start with https://, http://, ssh:// or git://, or be scp-like (git@host:path)")
  // A token in the URL would show in every status, event and log line that names the repository.
  @ValidationRule(value = "!self.matches('^https?://[^/]*@')",
      message = "url must not carry credentials: put them in the Secret that secretRef names")
  @JsonPropertyDescription("URL of the Git repository: http(s)://, ssh://, git:// or git@host:path.")
  private String url;

  @Required
  @JsonPropertyDescription("The branch, tag, semver range or commit to follow.")
  private GitRef ref;

  @Default(".")
  @Size(max = 1024)
  @ValidationRule(value = "!self.startsWith('/')", message = "path must be relative to the repository root")
  @ValidationRule(value = "!self.matches('(^|/)[.][.](/|$)')", message = "path must not contain a '..' segment")
  @JsonPropertyDescription("The folder of the repository to read Functions from.")
  private String path;

  @Default("1m")
  @Size(max = 32)
  @Pattern(DURATION_PATTERN)
  // A shorter interval would poll the forge in a loop; webhooks are the way to react faster.
  @ValidationRule(value = "duration(self) >= duration('10s')", message = "interval must be at least 10s")
  @JsonPropertyDescription("How often to check the repository for a new revision, like 30s, 1m or 1h.")
  private String interval;

  @Default("60s")
  @Size(max = 32)
  @Pattern(DURATION_PATTERN)
  @JsonPropertyDescription("Reserved: not read yet; the controller's --git-timeout bounds every Git operation.")
  private String timeout;

  @JsonPropertyDescription("A Secret with the Git credentials, in Kyma's format (username/password or key).")
  private SecretRef secretRef;

  @JsonPropertyDescription("The webhook that triggers this repository at once.")
  private Webhook webhook;

  @JsonPropertyDescription("Paths to leave out, one gitignore pattern a line.")
  private String ignore;

  @Default("true")
  @JsonPropertyDescription("Delete the Functions that left Git.")
  private Boolean prune;

  @Default("false")
  @JsonPropertyDescription("Allow a revision with no Function to delete every Function this repository made.")
  private Boolean allowEmpty;

  @Default("false")
  @JsonPropertyDescription("Stop applying this repository: Git is still checked and the newest revision shown in"
      + " status, but nothing is applied or pruned until resumed.")
  private Boolean suspend;

  @JsonPropertyDescription("Whether a Function of this repository whose new version fails to roll out goes back to"
      + " the last version that ran; unset follows the controller's --auto-rollback. false sets the annotation"
      + " gitfn.io/auto-rollback: \"false\" on its Functions.")
  private Boolean autoRollback;

  @JsonPropertyDescription("Report each revision's outcome as a commit status on the forge.")
  private CommitStatus commitStatus;

  @JsonPropertyDescription("Send a signed JSON notification of each revision's state to an endpoint.")
  private Notification notification;

  @JsonPropertyDescription("Verify each revision's signatures before applying it; an unverified revision is fetched,"
      + " not applied, and the last verified one keeps running.")
  private Verify verify;

  @JsonPropertyDescription("Decrypt the revision's SOPS-encrypted Secrets in the controller and apply them with its"
      + " Functions, in the repository's namespace.")
  private Decryption decryption;

  @Size(max = 253)
  @Pattern("^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$")
  @JsonPropertyDescription("A ServiceAccount of the repository's namespace that the controller impersonates for every"
      + " read, dry run, apply and prune of the revision, as Flux's Kustomization does: its RBAC decides what the"
      + " repository may create. Unset: the controller's own identity, which applies only the allowed kinds; a"
      + " controller run with --require-service-account refuses a repository without it.")
  private String serviceAccountName;

  @JsonPropertyDescription("Preview each qualifying pull request's head revision in a namespace of its own"
      + " (docs/previews.md).")
  private Previews previews;

  @JsonPropertyDescription("Set by gitfn on a repository it made for a pull request's preview: what it previews.")
  private PreviewOf previewOf;

  @Size(max = 32)
  @JsonPropertyDescription("FunctionRepositories that must run their revision (be Ready) before this one applies"
      + " a revision, as a Flux Kustomization's dependsOn.")
  private List<RepositoryReference> dependsOn;

  public String getUrl() {
    return url;
  }

  public void setUrl(String url) {
    this.url = url;
  }

  public GitRef getRef() {
    return ref;
  }

  public void setRef(GitRef ref) {
    this.ref = ref;
  }

  public String getPath() {
    return path;
  }

  public void setPath(String path) {
    this.path = path;
  }

  public String getInterval() {
    return interval;
  }

  public void setInterval(String interval) {
    this.interval = interval;
  }

  public String getTimeout() {
    return timeout;
  }

  public void setTimeout(String timeout) {
    this.timeout = timeout;
  }

  public SecretRef getSecretRef() {
    return secretRef;
  }

  public void setSecretRef(SecretRef secretRef) {
    this.secretRef = secretRef;
  }

  public Webhook getWebhook() {
    return webhook;
  }

  public void setWebhook(Webhook webhook) {
    this.webhook = webhook;
  }

  public String getIgnore() {
    return ignore;
  }

  public void setIgnore(String ignore) {
    this.ignore = ignore;
  }

  public Boolean getPrune() {
    return prune;
  }

  public void setPrune(Boolean prune) {
    this.prune = prune;
  }

  public Boolean getAllowEmpty() {
    return allowEmpty;
  }

  public void setAllowEmpty(Boolean allowEmpty) {
    this.allowEmpty = allowEmpty;
  }

  public Boolean getSuspend() {
    return suspend;
  }

  public void setSuspend(Boolean suspend) {
    this.suspend = suspend;
  }

  public List<RepositoryReference> getDependsOn() {
    return dependsOn;
  }

  public void setDependsOn(List<RepositoryReference> dependsOn) {
    this.dependsOn = dependsOn;
  }

  public CommitStatus getCommitStatus() {
    return commitStatus;
  }

  public void setCommitStatus(CommitStatus commitStatus) {
    this.commitStatus = commitStatus;
  }

  public Boolean getAutoRollback() {
    return autoRollback;
  }

  public void setAutoRollback(Boolean autoRollback) {
    this.autoRollback = autoRollback;
  }

  public Notification getNotification() {
    return notification;
  }

  public void setNotification(Notification notification) {
    this.notification = notification;
  }

  public Verify getVerify() {
    return verify;
  }

  public void setVerify(Verify verify) {
    this.verify = verify;
  }

  public String getServiceAccountName() {
    return serviceAccountName;
  }

  public void setServiceAccountName(String serviceAccountName) {
    this.serviceAccountName = serviceAccountName;
  }

  public Decryption getDecryption() {
    return decryption;
  }

  public void setDecryption(Decryption decryption) {
    this.decryption = decryption;
  }

  public Previews getPreviews() {
    return previews;
  }

  public void setPreviews(Previews previews) {
    this.previews = previews;
  }

  public PreviewOf getPreviewOf() {
    return previewOf;
  }

  public void setPreviewOf(PreviewOf previewOf) {
    this.previewOf = previewOf;
  }
}
