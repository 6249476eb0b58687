package io.gitfn.reconcile;

import static io.gitfn.api.function.ConditionReason.INVALID_FUNCTION_SPEC;
import static io.gitfn.api.function.ConditionReason.SOURCE_UPDATED;
import static io.gitfn.api.function.ConditionReason.SOURCE_UPDATE_FAILED;
import static io.gitfn.api.function.ConditionType.CONFIGURATION_READY;

import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.gitfn.api.Annotations;
import io.gitfn.api.function.Function;
import io.gitfn.api.function.FunctionStatus;
import io.gitfn.api.function.GitRepositorySource;
import io.gitfn.build.BuildContext;
import io.gitfn.build.BuildContextTooLargeException;
import io.gitfn.build.BuildJobSpec;
import io.gitfn.build.BuildSettings;
import io.gitfn.build.ContentKey;
import io.gitfn.manifest.FunctionRules;
import io.gitfn.source.GitCredentials;
import io.gitfn.source.GitFunctionSource;
import io.gitfn.source.MirrorCache;
import io.gitfn.source.RefSelector;
import io.gitfn.source.RepositoryUrl;
import io.gitfn.source.Revision;
import io.gitfn.source.SourceException;
import io.gitfn.trigger.SourceId;
import io.gitfn.trigger.SourceState;
import io.gitfn.trigger.SourceWatcher;
import io.gitfn.trigger.TrackedSource;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Works out what a Function's spec asks to build: the content key, the image and the build context.
 *
 * <p>An inline source is in the spec. A Git source is tracked by the {@link SourceWatcher} like a
 * FunctionRepository is, so a webhook or a poll of its mirror wakes the Function; the handler and dependency file
 * are read from the mirror at the resolved commit, so build Pods never see Git credentials. The key of a Git
 * source is the tree id of {@code baseDir}: a commit elsewhere in the repository keeps the key and builds nothing.
 */
final class FunctionSource {

  static final String KIND = "Function";

  private final KubernetesClient client;
  private final SourceWatcher watcher;
  private final MirrorCache mirrors;
  private final BuildSettings builds;
  private final ControllerSettings settings;
  // The last gitfn.io/requested-at each Function's Git source was checked for, so that a value asks once.
  private final Map<SourceId, String> requests = new ConcurrentHashMap<>();

  FunctionSource(KubernetesClient client, SourceWatcher watcher, MirrorCache mirrors, BuildSettings builds,
      ControllerSettings settings) {
    this.client = client;
    this.watcher = watcher;
    this.mirrors = mirrors;
    this.builds = builds;
    this.settings = settings;
  }

  /** The content key, image and build context of a Function's current spec. */
  record Build(ContentKey key, String image, BuildContext context) {}

  /**
   * Resolves the source. On success ConfigurationReady is True. A spec that can never build (one that breaks Kyma's
   * rules, as a Function applied with kubectl may, a context over the ConfigMap limit, a bad Git URL or Secret)
   * sets it False with InvalidFunctionSpec, naming every broken field, and waits for a new spec; a
   * Git source that cannot be read sets SourceUpdateFailed, and the watcher wakes the Function when Git changes.
   */
  Optional<Build> resolve(Function fn, FunctionPass pass) {
    List<String> broken = FunctionRules.check(fn);
    if (!broken.isEmpty()) {
      untrack(fn);
      pass.condition(CONFIGURATION_READY, "False", INVALID_FUNCTION_SPEC, String.join("; ", broken));
      return Optional.empty();
    }
    GitRepositorySource git = fn.getSpec().getSource() == null ? null : fn.getSpec().getSource().getGitRepository();
    if (git == null) {
      untrack(fn);
      return inline(fn, pass);
    }
    return git(fn, git, pass);
  }

  /** Stops watching the Git source of a Function that is gone or no longer has one. */
  void untrack(Function fn) {
    watcher.untrack(idOf(fn));
    requests.remove(idOf(fn));
  }

  static SourceId idOf(Function fn) {
    return new SourceId(KIND, fn.getMetadata().getNamespace(), fn.getMetadata().getName());
  }

  private Optional<Build> inline(Function fn, FunctionPass pass) {
    ContentKey key = ContentKey.ofInline(fn, builds);
    try {
      return Optional.of(configured(fn, key, BuildContext.ofInline(fn, builds), pass, "content key " + key.tag()));
    } catch (BuildContextTooLargeException e) {
      pass.condition(CONFIGURATION_READY, "False", INVALID_FUNCTION_SPEC, e.getMessage());
      return Optional.empty();
    }
  }

  private Optional<Build> git(Function fn, GitRepositorySource git, FunctionPass pass) {
    FunctionStatus status = pass.status();
    status.setReference(git.getReference());
    status.setBaseDir(git.getBaseDir());
    TrackedSource source;
    try {
      source = track(fn, git);
    } catch (InvalidSource e) {
      untrack(fn);
      pass.condition(CONFIGURATION_READY, "False", INVALID_FUNCTION_SPEC, e.getMessage());
      return Optional.empty();
    }
    String requested = fn.getMetadata().getAnnotations() == null ? null
        : fn.getMetadata().getAnnotations().get(Annotations.REQUESTED_AT);
    if (requested != null && !requested.equals(requests.put(source.id(), requested))) {
      watcher.trigger(source.id(), "requested at " + requested); // the check's answer wakes the Function again
    }
    SourceState state = watcher.state(source.id());
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
    try {
      GitFunctionSource read = GitFunctionSource.read(fn,
          mirrors.mirror(source.url(), source.credentials()).snapshot(revision), builds);
      status.setCommit(revision.sha());
      status.setSourceRevision(revision.toString());
      pass.revision(revision.toString());
      String checked = state.error().map(e -> "; the last check failed, so this is the last good revision: " + e)
          .orElse("");
      return Optional.of(configured(fn, read.key(), read.context(), pass, revision + " (baseDir tree "
          + read.tree().substring(0, 12) + ", content key " + read.key().tag() + ")" + checked));
    } catch (SourceException e) {
      pass.condition(CONFIGURATION_READY, "False", SOURCE_UPDATE_FAILED, e.getMessage());
      return Optional.empty();
    } catch (BuildContextTooLargeException e) {
      pass.condition(CONFIGURATION_READY, "False", INVALID_FUNCTION_SPEC, e.getMessage());
      return Optional.empty();
    }
  }

  private Build configured(Function fn, ContentKey key, BuildContext context, FunctionPass pass, String message) {
    pass.condition(CONFIGURATION_READY, "True", SOURCE_UPDATED, message);
    pass.status().setRuntimeImage(ContentKey.baseImage(fn, builds));
    return new Build(key, BuildJobSpec.image(fn, key, builds), context);
  }

  /** Makes sure the watcher tracks the Function's repository, reference and credentials. */
  private TrackedSource track(Function fn, GitRepositorySource git) throws InvalidSource {
    RepositoryUrl url;
    RefSelector ref;
    try {
      url = RepositoryUrl.parse(git.getUrl());
      ref = RefSelector.fromKymaReference(git.getReference());
    } catch (IllegalArgumentException | NullPointerException e) {
      throw new InvalidSource("spec.source.gitRepository: " + e.getMessage());
    }
    GitCredentials credentials = new GitCredentials.None();
    if (git.getAuth() != null) {
      String type = git.getAuth().getType() == null ? null : git.getAuth().getType().name();
      try {
        credentials = GitCredentials.fromSecret(type, secretData(fn, git.getAuth().getSecretName()),
            settings.knownHosts());
      } catch (SourceException e) {
        throw new InvalidSource("spec.source.gitRepository.auth: " + e.getMessage());
      }
    }
    TrackedSource source = new TrackedSource(idOf(fn), url, credentials, ref, settings.functionSourceInterval(),
        Optional.empty());
    watcher.track(source);
    return source;
  }

  private Map<String, String> secretData(Function fn, String name) throws InvalidSource {
    if (name == null || name.isBlank()) {
      throw new InvalidSource("spec.source.gitRepository.auth.secretName is empty");
    }
    Secret secret = client.secrets().inNamespace(fn.getMetadata().getNamespace()).withName(name).get();
    if (secret == null) {
      throw new InvalidSource("spec.source.gitRepository.auth: Secret " + fn.getMetadata().getNamespace() + "/"
          + name + " does not exist");
    }
    try {
      return SecretData.of(secret);
    } catch (IllegalArgumentException e) {
      throw new InvalidSource("spec.source.gitRepository.auth: " + e.getMessage());
    }
  }

  /** A spec or Secret problem only a person can fix. */
  private static final class InvalidSource extends Exception {
    InvalidSource(String message) {
      super(message);
    }
  }
}
