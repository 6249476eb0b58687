package io.gitfn.reconcile.function;

import java.util.Map;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.gitfn.api.Labels;
import static io.gitfn.api.function.ConditionReason.INVALID_FUNCTION_SPEC;
import static io.gitfn.api.function.ConditionReason.SOURCE_UPDATED;
import static io.gitfn.api.function.ConditionReason.SOURCE_UPDATE_FAILED;
import static io.gitfn.api.function.ConditionType.CONFIGURATION_READY;

import io.gitfn.api.Annotations;
import io.gitfn.api.function.Function;
import io.gitfn.api.function.FunctionRuntime;
import io.gitfn.api.function.FunctionStatus;
import io.gitfn.api.function.GitRepositorySource;
import io.gitfn.api.function.GitRepositoryStatus;
import io.gitfn.build.BuildContextTooLargeException;
import io.gitfn.build.BuildSettings;
import io.gitfn.build.ContentKey;
import io.gitfn.build.FunctionBuildPlan;
import io.gitfn.manifest.FunctionRules;
import io.gitfn.reconcile.Failures;
import io.gitfn.reconcile.Result;
import io.gitfn.reconcile.RevisionSignatures;
import io.gitfn.reconcile.SourceBinding;
import io.gitfn.reconcile.StepFailure;
import io.gitfn.source.GitBaseDir;
import io.gitfn.source.GitCredentials;
import io.gitfn.source.MirrorCache;
import io.gitfn.source.RefSelector;
import io.gitfn.source.RepositoryUrl;
import io.gitfn.source.Revision;
import io.gitfn.source.SourceException;
import io.gitfn.trigger.SourceId;
import io.gitfn.trigger.SourceState;
import io.gitfn.trigger.TrackedSource;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * Works out what a Function's spec asks to build, its {@link FunctionBuildPlan} (content key, image and context),
 * and says so in ConfigurationReady.
 *
 * <p>An inline source is in the spec. A Git source is bound to the watcher as a FunctionRepository's is
 * ({@link SourceBinding}), so a webhook or a poll of its mirror wakes the Function. Its {@code baseDir} is read from
 * the mirror at the resolved commit ({@link GitBaseDir}), so build Pods never see Git credentials, and a commit
 * elsewhere in the repository keeps the key and builds nothing. With the {@code gitfn.io/verify-*} annotations a
 * revision is planned only once its signatures verify ({@link SourceVerification}).
 *
 * <p>A spec that can never build (one that breaks Kyma's rules, as a Function applied with kubectl may; a context
 * over the ConfigMap limit; a bad Git URL, Secret or verify annotation) stalls with InvalidFunctionSpec, naming every
 * broken field; a Secret is looked at again an interval later, since Secrets are not watched. A Git source that
 * cannot be read says SourceUpdateFailed; the watcher wakes the Function when Git changes.
 */
final class PlanStep implements FunctionStep {

  static final String KIND = "Function";
  private static final String GIT_FIELD = "spec.source.gitRepository";

  private final MirrorCache mirrors;
  private final BuildSettings builds;
  private final Duration interval;
  private final SourceBinding sources;
  private final SourceVerification verification;
  private final NamespaceLabels namespaces;

  /** A namespace's labels, read when a Function asks for another namespace's images. */
  interface NamespaceLabels {
    /** Empty when the namespace does not exist. */
    Optional<Map<String, String>> of(String namespace);
  }

  /**
   * @param interval how often a Function's Git source is checked without a webhook
   * @param signatures verifies a revision for the {@code gitfn.io/verify-*} annotations
   */
  PlanStep(SourceBinding sources, MirrorCache mirrors, BuildSettings builds, Duration interval,
      RevisionSignatures signatures, NamespaceLabels namespaces) {
    this.namespaces = namespaces;
    this.sources = sources;
    this.mirrors = mirrors;
    this.builds = builds;
    this.interval = interval;
    this.verification = new SourceVerification(signatures, interval);
  }

  @Override
  public String condition() {
    return CONFIGURATION_READY;
  }

  @Override
  public Result run(FunctionState state) throws StepFailure {
    Function fn = state.fn();
    List<String> broken = FunctionRules.check(fn);
    if (!broken.isEmpty()) {
      untrack(fn);
      throw StepFailure.stalled(INVALID_FUNCTION_SPEC, String.join("; ", broken));
    }
    checkImageNamespace(fn);
    GitRepositorySource git = fn.getSpec().getSource() == null ? null : fn.getSpec().getSource().getGitRepository();
    try {
      if (git == null) {
        untrack(fn);
        FunctionBuildPlan plan = FunctionBuildPlan.ofInline(fn, builds);
        configured(state, plan, "content key " + plan.key().tag());
      } else {
        fromGit(state, git);
      }
    } catch (BuildContextTooLargeException e) {
      throw StepFailure.stalled(INVALID_FUNCTION_SPEC, e.getMessage());
    } catch (SourceException e) {
      throw Failures.stalls(e) ? StepFailure.stalled(SOURCE_UPDATE_FAILED, e.getMessage())
          : StepFailure.retry(SOURCE_UPDATE_FAILED, e.getMessage() + "; retried with backoff", e);
    }
    return Result.next();
  }

  /**
   * Guarantees that a Function uses another namespace's images ({@link Annotations#IMAGE_NAMESPACE}) only where gitfn
   * made its namespace for a preview of a repository of that namespace: only gitfn and cluster administrators label
   * namespaces, so a tenant cannot reach another's registry path or push Secret by annotating a Function.
   */
  private void checkImageNamespace(Function fn) throws StepFailure {
    String images = FunctionBuildPlan.imageNamespace(fn);
    String namespace = fn.getMetadata().getNamespace();
    if (images.equals(namespace)) {
      return;
    }
    Optional<Map<String, String>> labels;
    try {
      labels = namespaces.of(namespace);
    } catch (KubernetesClientException e) {
      throw StepFailure.retry(INVALID_FUNCTION_SPEC, "cannot read namespace " + namespace + " to check annotation "
          + Annotations.IMAGE_NAMESPACE + ": " + e.getMessage(), e);
    }
    String previewOf = labels.map(l -> l.get(Labels.PREVIEW_OF)).orElse(null);
    if (previewOf == null || !previewOf.startsWith(images + ".")) {
      throw StepFailure.stalled(INVALID_FUNCTION_SPEC, "annotation " + Annotations.IMAGE_NAMESPACE + ": " + images
          + " is honoured only on a preview's Function, in a namespace gitfn made for a preview of a repository of"
          + " namespace " + images + "; namespace " + namespace + " is not one");
    }
  }

  /** Stops watching the Git source of a Function that is gone or no longer has one. */
  void untrack(Function fn) {
    sources.untrack(idOf(fn));
  }

  static SourceId idOf(Function fn) {
    return new SourceId(KIND, fn.getMetadata().getNamespace(), fn.getMetadata().getName());
  }

  private void fromGit(FunctionState state, GitRepositorySource git)
      throws StepFailure, SourceException, BuildContextTooLargeException {
    Function fn = state.fn();
    FunctionStatus status = state.status();
    status.setReference(git.getReference());
    status.setBaseDir(git.getBaseDir());
    Optional<SourceVerification.Asked> verify;
    try {
      verify = SourceVerification.asked(fn);
    } catch (StepFailure.Stalled e) {
      untrack(fn);
      throw e;
    }
    TrackedSource source = track(fn, git);
    Annotations.get(fn, Annotations.REQUESTED_AT).ifPresent(requested -> sources.request(source.id(), requested));
    SourceState known = sources.state(source.id());
    if (known.revision().isEmpty()) {
      if (known.error().isPresent()) {
        state.condition(CONFIGURATION_READY, "False", SOURCE_UPDATE_FAILED, known.error().get());
      } else {
        state.condition(CONFIGURATION_READY, "Unknown", SOURCE_UPDATED, "fetching " + source.url() + " "
            + git.getReference());
      }
      return; // the watcher wakes the Function when the check ends
    }
    Revision revision = known.revision().get();
    state.attempted(revision);
    verification.verify(state, verify, source, revision);
    GitBaseDir baseDir = GitBaseDir.read(fn, mirrors.read(source.url(), source.credentials(), revision), builds);
    status.setCommit(revision.sha());
    status.setGitRepository(new GitRepositoryStatus(git.getUrl(), git.getBaseDir(), git.getReference(),
        revision.sha()));
    status.setSourceRevision(revision.toString());
    state.revision(revision.toString());
    String checked = known.error().map(e -> "; the last check failed, so this is the last good revision: " + e)
        .orElse("");
    ContentKey key = baseDir.plan().key();
    configured(state, baseDir.plan(), revision + " (baseDir tree " + baseDir.tree().substring(0, 12)
        + ", content key " + key.tag() + ")" + checked);
  }

  private void configured(FunctionState state, FunctionBuildPlan plan, String message) {
    FunctionRuntime runtime = state.fn().getSpec().getRuntime();
    state.condition(CONFIGURATION_READY, "True", SOURCE_UPDATED,
        runtime.deprecated() ? runtime.deprecationWarning() + "; " + message : message);
    state.status().setRuntimeImage(ContentKey.baseImage(state.fn(), builds));
    state.plan(plan);
  }

  /**
   * Makes sure the watcher tracks the Function's repository, reference and credentials. A URL or Secret only a
   * person can fix is an invalid spec, in Kyma's words; a Secret is looked at again an interval later.
   */
  private TrackedSource track(Function fn, GitRepositorySource git) throws StepFailure {
    try {
      RepositoryUrl url = sources.url(GIT_FIELD, git.getUrl());
      RefSelector ref = SourceBinding.ref(GIT_FIELD, () -> RefSelector.fromKymaReference(git.getReference()));
      GitCredentials credentials = new GitCredentials.None();
      if (git.getAuth() != null) {
        String field = GIT_FIELD + ".auth";
        String type = git.getAuth().getType() == null ? null : git.getAuth().getType().name();
        credentials = sources.credentials(type,
            sources.secret(fn.getMetadata().getNamespace(), git.getAuth().getSecretName(), field), field);
      }
      return sources.track(new TrackedSource(idOf(fn), url, credentials, ref, interval, Optional.empty()));
    } catch (StepFailure.Stalled e) {
      untrack(fn);
      StepFailure.Stalled invalid = StepFailure.stalled(INVALID_FUNCTION_SPEC, e.getMessage());
      throw SourceBinding.aboutSecret(e) ? invalid.lookingAgainAfter(interval) : invalid;
    }
  }
}
