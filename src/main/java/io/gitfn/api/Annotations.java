package io.gitfn.api;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.Map;
import java.util.Optional;

/** The annotations gitfn reads and writes, in one place, so that every package means the same key. */
public final class Annotations {

  /**
   * Set by {@code gitfn reconcile}: a request to act now. On a FunctionRepository it checks Git at once; on a
   * Function it checks its Git source and builds a failed key again. On a build Job it records the request the Job
   * was made for, so that a new one retries.
   */
  public static final String REQUESTED_AT = "gitfn.io/requested-at";

  /** On a synced Function: the revision that last changed its applied content, {@code <ref>@sha1:<sha>}. */
  public static final String REVISION = "gitfn.io/revision";

  /** On a synced Function: a digest of what gitfn applied, without the revision; a change in Git changes it. */
  public static final String APPLIED_HASH = "gitfn.io/applied-hash";

  /**
   * Set by {@code gitfn rollback function --pin}: the revision (a history entry's {@code revision}) whose image
   * the Function runs until the annotation is removed. Sync never owns it, so the next sync keeps the pin.
   */
  public static final String PINNED_REVISION = "gitfn.io/pinned-revision";

  /**
   * On a Function: {@code image} or {@code buildless}, how this Function's code reaches its Pods, over the
   * controller's {@code --build-mode}. Any other value is an invalid spec (ConfigurationReady False).
   */
  public static final String BUILD_MODE = "gitfn.io/build-mode";

  /**
   * On a Function: {@code "false"} turns automatic rollback off for it, whatever the controller's
   * {@code --auto-rollback}; a FunctionRepository with {@code spec.autoRollback: false} sets it on its Functions.
   */
  public static final String AUTO_ROLLBACK = "gitfn.io/auto-rollback";

  /**
   * On a Function with a Git source: the Secret (key {@code token}) to report each revision's outcome with, as a
   * commit status on the forge; a FunctionRepository's {@code spec.commitStatus} for a Function, whose schema stays
   * Kyma's.
   */
  public static final String COMMIT_STATUS_SECRET = "gitfn.io/commit-status-secret";

  /** With {@link #COMMIT_STATUS_SECRET}: the forge, where the URL's host does not tell it. */
  public static final String COMMIT_STATUS_FORGE = "gitfn.io/commit-status-forge";

  /** With {@link #COMMIT_STATUS_SECRET}: the forge's API base, where it is not where gitfn derives it. */
  public static final String COMMIT_STATUS_API_URL = "gitfn.io/commit-status-api-url";

  /**
   * On a Function with a Git source: what must be signed before a revision is built, {@code HEAD}, {@code Tag},
   * {@code TagAndHEAD} or {@code Range}, as a FunctionRepository's {@code spec.verify.mode} (whose schema a
   * Function lacks: its spec stays Kyma's). {@code HEAD} when only {@link #VERIFY_SECRET} is set; without it, or
   * with another value, the spec is invalid.
   */
  public static final String VERIFY_MODE = "gitfn.io/verify-mode";

  /**
   * On a Function with a Git source: the Secret of its namespace holding the keys its revisions must be signed with,
   * laid out as a FunctionRepository's {@code spec.verify.secretRef}.
   */
  public static final String VERIFY_SECRET = "gitfn.io/verify-secret";

  /** On a Function read from Git: the file or folder of the repository it came from. */
  public static final String SOURCE_PATH = "gitfn.io/source-path";

  /**
   * On a Function a FunctionRepository applied: a keyed digest of the decrypted Secrets of the repository that the
   * Function reads (env {@code secretKeyRef}, {@code secretMounts}). The Deployment's Pod template carries it, so
   * the Function's Pods roll when a Secret's content changes, with no build (it is not part of the content key).
   */
  public static final String SECRETS_DIGEST = "gitfn.io/secrets-digest";

  /**
   * On a Function a FunctionRepository applied: a digest of the repository's ConfigMaps that the Function reads (env
   * {@code configMapKeyRef}). Like {@link #SECRETS_DIGEST}, the Pod template carries it, so the Pods roll when a
   * ConfigMap's data changes, with no build.
   */
  public static final String CONFIG_MAPS_DIGEST = "gitfn.io/config-maps-digest";

  /**
   * On an object of another allowed kind (a route) a FunctionRepository applied: a digest of the content it applied
   * (everything but metadata), so that a change in Git is told from the fields the API server defaults, which make
   * the live object differ from the file. On a preview's FunctionRepository, the digest of the spec gitfn wrote it
   * with, for the same reason.
   */
  public static final String APPLIED_DIGEST = "gitfn.io/applied-digest";

  /**
   * On a preview's Function (docs/previews.md): the namespace whose registry path, push Secret and package-registry
   * Secret its images use, the previewed repository's, so that an unchanged Function reuses the image that runs and a
   * merge finds the preview's images. Honoured only in a namespace labelled {@link Labels#PREVIEW_OF} for it.
   */
  public static final String IMAGE_NAMESPACE = "gitfn.io/image-namespace";

  private Annotations() {}

  /** The annotation's value on {@code object}; empty when it has none or no annotations at all. */
  public static Optional<String> get(HasMetadata object, String key) {
    Map<String, String> annotations = object.getMetadata() == null ? null : object.getMetadata().getAnnotations();
    return Optional.ofNullable(annotations == null ? null : annotations.get(key));
  }
}
