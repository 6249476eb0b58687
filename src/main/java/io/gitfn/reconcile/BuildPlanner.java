package io.gitfn.reconcile;

import static io.gitfn.api.function.ConditionReason.INVALID_FUNCTION_SPEC;
import static io.gitfn.api.function.ConditionReason.SOURCE_UPDATED;
import static io.gitfn.api.function.ConditionReason.SOURCE_UPDATE_FAILED;
import static io.gitfn.api.function.ConditionType.CONFIGURATION_READY;

import io.fabric8.kubernetes.client.KubernetesClient;
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
import io.gitfn.source.GitBaseDir;
import io.gitfn.source.GitCredentials;
import io.gitfn.source.MirrorCache;
import io.gitfn.source.RefSelector;
import io.gitfn.source.RepositoryUrl;
import io.gitfn.source.Revision;
import io.gitfn.source.SourceException;
import io.gitfn.trigger.SourceId;
import io.gitfn.trigger.SourceState;
import io.gitfn.trigger.SourceWatcher;
import io.gitfn.trigger.TrackedSource;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Works out what a Function's spec asks to build: its {@link FunctionBuildPlan} (content key, image and context).
 *
 * <p>An inline source is in the spec. A Git source is bound to the {@link SourceWatcher} as a FunctionRepository's
 * is ({@link SourceBinding}), so a webhook or a poll of its mirror wakes the Function. Its {@code baseDir} is read
 * from the mirror at the resolved commit ({@link GitBaseDir}), so build Pods never see Git credentials, and a commit
 * elsewhere in the repository keeps the key and builds nothing.
 */
final class BuildPlanner {

  static final String KIND = "Function";
  private static final String GIT_FIELD = "spec.source.gitRepository";
  // A read of the mirror that may pass by itself (a timeout) is tried again; the watcher only wakes on news.
  private static final Duration READ_RETRY = Duration.ofSeconds(10);

  private final MirrorCache mirrors;
  private final BuildSettings builds;
  private final Duration interval;
  private final SourceBinding sources;

  /** @param wake reconciles the Function whose Git source moved or failed */
  BuildPlanner(KubernetesClient client, SourceWatcher watcher, MirrorCache mirrors, BuildSettings builds,
      ControllerSettings settings, Clock clock, Consumer<SourceId> wake) {
    this.mirrors = mirrors;
    this.builds = builds;
    this.interval = settings.functionSourceInterval();
    this.sources = new SourceBinding(client, watcher, settings, clock, wake);
  }

  /**
   * The plan of the Function's spec. On success ConfigurationReady is True. A spec that can never build (one that
   * breaks Kyma's rules, as a Function applied with kubectl may, a context over the ConfigMap limit, a bad Git URL
   * or Secret) sets it False with InvalidFunctionSpec, naming every broken field, and waits for a new spec; a Git
   * source that cannot be read sets SourceUpdateFailed, and the watcher wakes the Function when Git changes.
   */
  Optional<FunctionBuildPlan> plan(Function fn, FunctionPass pass) {
    List<String> broken = FunctionRules.check(fn);
    if (!broken.isEmpty()) {
      untrack(fn);
      pass.condition(CONFIGURATION_READY, "False", INVALID_FUNCTION_SPEC, String.join("; ", broken));
      return Optional.empty();
    }
    GitRepositorySource git = fn.getSpec().getSource() == null ? null : fn.getSpec().getSource().getGitRepository();
    try {
      if (git == null) {
        untrack(fn);
        FunctionBuildPlan plan = FunctionBuildPlan.ofInline(fn, builds);
        return Optional.of(configured(fn, plan, pass, "content key " + plan.key().tag()));
      }
      return fromGit(fn, git, pass);
    } catch (InvalidSourceException e) {
      untrack(fn);
      pass.condition(CONFIGURATION_READY, "False", INVALID_FUNCTION_SPEC, e.getMessage());
      if (e.aboutSecret()) {
        pass.retryWithin(interval); // Secrets are not watched: one created or fixed later is found on the next look
      }
    } catch (BuildContextTooLargeException e) {
      pass.condition(CONFIGURATION_READY, "False", INVALID_FUNCTION_SPEC, e.getMessage());
    } catch (SourceException e) {
      pass.condition(CONFIGURATION_READY, "False", SOURCE_UPDATE_FAILED, e.getMessage());
      if (!Failure.stalls(e)) {
        pass.retryWithin(READ_RETRY);
      }
    }
    return Optional.empty();
  }

  /** Stops watching the Git source of a Function that is gone or no longer has one. */
  void untrack(Function fn) {
    sources.untrack(idOf(fn));
  }

  static SourceId idOf(Function fn) {
    return new SourceId(KIND, fn.getMetadata().getNamespace(), fn.getMetadata().getName());
  }

  private Optional<FunctionBuildPlan> fromGit(Function fn, GitRepositorySource git, FunctionPass pass)
      throws InvalidSourceException, SourceException, BuildContextTooLargeException {
    FunctionStatus status = pass.status();
    status.setReference(git.getReference());
    status.setBaseDir(git.getBaseDir());
    TrackedSource source = track(fn, git);
    Annotations.get(fn, Annotations.REQUESTED_AT).ifPresent(requested -> sources.request(source.id(), requested));
    SourceState state = sources.state(source.id());
    if (state.revision().isEmpty()) {
      if (state.error().isPresent()) {
        pass.condition(CONFIGURATION_READY, "False", SOURCE_UPDATE_FAILED, state.error().get());
      } else {
        pass.condition(CONFIGURATION_READY, "Unknown", SOURCE_UPDATED, "fetching " + source.url() + " "
            + git.getReference());
      }
      return Optional.empty(); // the watcher wakes the Function when the check ends
    }
    Revision revision = state.revision().get();
    GitBaseDir baseDir = GitBaseDir.read(fn, mirrors.read(source.url(), source.credentials(), revision), builds);
    status.setCommit(revision.sha());
    status.setGitRepository(new GitRepositoryStatus(git.getUrl(), git.getBaseDir(), git.getReference(),
        revision.sha()));
    status.setSourceRevision(revision.toString());
    pass.revision(revision.toString());
    String checked = state.error().map(e -> "; the last check failed, so this is the last good revision: " + e)
        .orElse("");
    ContentKey key = baseDir.plan().key();
    return Optional.of(configured(fn, baseDir.plan(), pass, revision + " (baseDir tree "
        + baseDir.tree().substring(0, 12) + ", content key " + key.tag() + ")" + checked));
  }

  private FunctionBuildPlan configured(Function fn, FunctionBuildPlan plan, FunctionPass pass, String message) {
    FunctionRuntime runtime = fn.getSpec().getRuntime();
    pass.condition(CONFIGURATION_READY, "True", SOURCE_UPDATED,
        runtime.deprecated() ? runtime.deprecationWarning() + "; " + message : message);
    pass.status().setRuntimeImage(ContentKey.baseImage(fn, builds));
    return plan;
  }

  /** Makes sure the watcher tracks the Function's repository, reference and credentials. */
  private TrackedSource track(Function fn, GitRepositorySource git) throws InvalidSourceException {
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
  }
}
