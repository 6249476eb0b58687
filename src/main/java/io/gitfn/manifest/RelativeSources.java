package io.gitfn.manifest;

import io.gitfn.api.Annotations;
import io.gitfn.api.function.Function;
import io.gitfn.api.function.GitRepositorySource;
import io.gitfn.api.function.RepositoryAuth;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Makes the relative Git URLs of a revision's Functions ({@link RelativeGitUrl}) absolute, against the infra
 * repository that holds the revision as whoever reads it knows it: the FunctionRepository's {@code spec.url} in the
 * cluster, the Git repository around a folder on a laptop. A Function leaves with the URL the Function controller
 * reads, so nothing downstream knows relative URLs.
 */
public final class RelativeSources {

  static final String FIELD = "spec.source.gitRepository.url";

  /**
   * What the relative URLs of one revision resolve against.
   *
   * @param self the infra repository's URL, which {@code ./} names and {@code ../} climbs from; empty when the reader
   *     has none
   * @param siblings the URL {@code ../} climbs from: {@code self} in a cluster, a local clone's {@code origin}
   *     remote on a laptop; empty when there is none
   * @param unknown why {@code self} or {@code siblings} is empty: the end of an error message
   * @param auth what a resolved Function that names no {@code auth} gets (the repository's Secret), or null
   * @param namespace the namespace {@code auth}'s Secret is in: a Function placed elsewhere cannot read it
   */
  public record Base(Optional<String> self, Optional<String> siblings, String unknown, RepositoryAuth auth,
      String namespace) {

    public Base {
      Objects.requireNonNull(self, "self");
      Objects.requireNonNull(siblings, "siblings");
      Objects.requireNonNull(unknown, "unknown");
    }

    /** A repository known by its URL, which both forms resolve against. */
    public static Base of(String url, RepositoryAuth auth, String namespace) {
      return new Base(Optional.of(url), Optional.of(url), "", auth, namespace);
    }

    /** A reader that knows no repository, and why. */
    public static Base none(String why) {
      return new Base(Optional.empty(), Optional.empty(), why, null, null);
    }
  }

  private RelativeSources() {
  }

  /**
   * Resolves the relative URL of each of {@code functions} in place, and gives {@code base.auth()} to those that name
   * none; a Function with an absolute URL is left as it is.
   *
   * @return one error per Function whose URL cannot be resolved, naming its file and field; those are left as they were
   */
  public static List<ManifestError> resolve(List<Function> functions, Base base) {
    List<ManifestError> errors = new ArrayList<>();
    for (Function function : functions) {
      resolve(function, base).ifPresent(errors::add);
    }
    return errors;
  }

  /**
   * {@link #resolve(List, Base)}, for a reader that treats a URL it cannot resolve as an invalid revision.
   *
   * @throws InvalidManifestException with one error per Function whose URL cannot be resolved
   */
  public static void resolveAll(List<Function> functions, Base base) throws InvalidManifestException {
    List<ManifestError> errors = resolve(functions, base);
    if (!errors.isEmpty()) {
      throw new InvalidManifestException(errors);
    }
  }

  /** {@link #resolve(List, Base)} of one Function: the error, if its URL cannot be resolved. */
  public static Optional<ManifestError> resolve(Function function, Base base) {
    GitRepositorySource git = function.getSpec() == null || function.getSpec().getSource() == null ? null
        : function.getSpec().getSource().getGitRepository();
    if (git == null || git.getUrl() == null || !RelativeGitUrl.isRelative(git.getUrl())) {
      return Optional.empty();
    }
    String url = git.getUrl().strip();
    boolean self = url.equals(".") || url.equals("./");
    Optional<String> against = self ? base.self() : base.siblings();
    if (against.isEmpty()) {
      return Optional.of(error(function, "`" + url + "` cannot be resolved: " + base.unknown()));
    }
    String target = function.getMetadata().getNamespace();
    boolean elsewhere = target != null && base.namespace() != null && !target.equals(base.namespace());
    if (git.getAuth() == null && base.auth() != null && elsewhere) {
      return Optional.of(error(function, "`" + url + "` is read with the repository's Secret "
          + base.auth().getSecretName() + ", which is in namespace " + base.namespace() + " and not in " + target
          + ", where this Function is; name a Secret of " + target + " in spec.source.gitRepository.auth"));
    }
    try {
      git.setUrl(RelativeGitUrl.resolve(url, against.get()));
    } catch (IllegalArgumentException e) {
      return Optional.of(error(function, e.getMessage()));
    }
    if (git.getAuth() == null && base.auth() != null) {
      RepositoryAuth auth = new RepositoryAuth();
      auth.setType(base.auth().getType());
      auth.setSecretName(base.auth().getSecretName());
      git.setAuth(auth);
    }
    return Optional.empty();
  }

  private static ManifestError error(Function function, String message) {
    Map<String, String> annotations = function.getMetadata().getAnnotations();
    String file = annotations == null ? null : annotations.get(Annotations.SOURCE_PATH);
    return new ManifestError(file != null ? file : "Function " + function.getMetadata().getName(), 0, FIELD, message);
  }
}
