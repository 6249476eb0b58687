package io.gitfn.build;

import io.gitfn.api.Annotations;

import io.gitfn.api.function.Function;
import java.util.Map;

/**
 * What building a Function's current spec means: its content key, the image that key names, and the build context.
 * The controller, {@code gitfn render --with-workloads} and {@code gitfn up} all start from one, so they agree on
 * every key and image.
 *
 * @param lockFile the dependency lock file read beside the dependency file ({@code package-lock.json} in a Git
 *     {@code baseDir}), or null when there is none. Only buildless Pods install from it ({@link BuildlessSource});
 *     the image build installs from the dependency file as it always has. A Git source's key, the tree id of
 *     {@code baseDir}, covers it already.
 */
public record FunctionBuildPlan(ContentKey key, String image, BuildContext context, String lockFile) {

  /**
   * The plan of an inline source, which the spec holds whole.
   *
   * @throws BuildContextTooLargeException when the source and dependencies exceed the ConfigMap limit
   */
  public static FunctionBuildPlan ofInline(Function fn, BuildSettings builds) throws BuildContextTooLargeException {
    return of(fn, ContentKey.ofInline(fn, builds), BuildContext.ofInline(fn, builds), null, builds);
  }

  /**
   * The plan of a Git source at one commit: keyed by the tree id of its {@code baseDir}, so a commit elsewhere in
   * the repository keeps the key, and built from the handler and dependency file read there.
   *
   * @param dependencies the dependency file's text, or null when {@code baseDir} has none
   * @throws BuildContextTooLargeException when the handler and dependencies exceed the ConfigMap limit
   */
  public static FunctionBuildPlan ofGitTree(Function fn, String baseDirTree, String handler, String dependencies,
      BuildSettings builds) throws BuildContextTooLargeException {
    return ofGitTree(fn, baseDirTree, handler, dependencies, null, builds);
  }

  /** As {@link #ofGitTree(Function, String, String, String, BuildSettings)}, with the lock file, or null. */
  public static FunctionBuildPlan ofGitTree(Function fn, String baseDirTree, String handler, String dependencies,
      String lockFile, BuildSettings builds) throws BuildContextTooLargeException {
    return of(fn, ContentKey.ofGitTree(fn, baseDirTree, builds), BuildContext.of(fn, handler, dependencies, builds),
        lockFile, builds);
  }

  private static FunctionBuildPlan of(Function fn, ContentKey key, BuildContext context, String lockFile,
      BuildSettings builds) {
    return new FunctionBuildPlan(key, image(fn, key, builds), context, lockFile);
  }

  /**
   * {@code <registry>/<namespace>/<name>:<key tag>}, the image's name; the Deployment runs it by digest. Neither
   * part can hold a {@code /}, so each Function has a repository of its own, and a registry can scope push
   * credentials to {@code <registry>/<namespace>/*}. ({@code <namespace>-<name>} was ambiguous: namespace
   * {@code a} with Function {@code b-c} and namespace {@code a-b} with Function {@code c} shared one.)
   */
  public static String image(Function fn, ContentKey key, BuildSettings settings) {
    return settings.registry() + "/" + imageNamespace(fn) + "/" + fn.getMetadata().getName() + ":" + key.tag();
  }

  /**
   * The namespace whose registry path {@code fn}'s images live under: its own, or, for a preview's Function, the
   * previewed repository's ({@link Annotations#IMAGE_NAMESPACE}, which the Function controller checks before it plans).
   */
  public static String imageNamespace(Function fn) {
    Map<String, String> annotations = fn.getMetadata().getAnnotations();
    String named = annotations == null ? null : annotations.get(Annotations.IMAGE_NAMESPACE);
    return named == null || named.isBlank() ? fn.getMetadata().getNamespace() : named;
  }
}
