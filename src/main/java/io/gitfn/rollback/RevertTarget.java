package io.gitfn.rollback;

import io.gitfn.api.Annotations;
import io.gitfn.api.function.Function;
import io.gitfn.api.function.GitRepositorySource;
import io.gitfn.api.repository.FunctionRepository;
import io.gitfn.api.repository.GitRef;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Where a Function lives in Git: the repository, the branch a revert is pushed to, and the paths that hold it.
 *
 * @param paths repository-relative paths with {@code /} separators; {@link #WHOLE_REPOSITORY} for all of it
 * @param origin what the paths come from, for messages, like {@code FunctionRepository shop/infra}
 */
public record RevertTarget(String url, String branch, List<String> paths, String origin) {

  /** The path that stands for the whole repository, as {@code git} reads it. */
  public static final String WHOLE_REPOSITORY = ".";

  private static final Pattern FULL_SHA = Pattern.compile("[0-9a-f]{40}");

  public RevertTarget {
    Objects.requireNonNull(url, "url");
    Objects.requireNonNull(branch, "branch");
    paths = List.copyOf(paths);
    if (paths.isEmpty()) {
      throw new IllegalArgumentException("a revert needs at least one path");
    }
  }

  /**
   * A Function an infra repository applied: that repository's branch, and the file or folder the Function was
   * read from ({@link Annotations#SOURCE_PATH}: a Function YAML file, a Kyma CLI folder or a plain folder).
   */
  static RevertTarget fromRepository(Function fn, FunctionRepository repository) {
    String origin = "FunctionRepository " + repository.getMetadata().getNamespace() + "/"
        + repository.getMetadata().getName();
    GitRef ref = repository.getSpec().getRef();
    if (ref == null || ref.getBranch() == null) {
      throw new RollbackException(describe(fn) + " comes from " + origin + ", which follows " + followed(ref)
          + ", not a branch, so there is no branch to push a revert to; run its earlier image with --pin");
    }
    Map<String, String> annotations = fn.getMetadata().getAnnotations();
    String sourcePath = annotations == null ? null : annotations.get(Annotations.SOURCE_PATH);
    if (sourcePath == null || sourcePath.isBlank()) {
      throw new RollbackException(describe(fn) + " has no " + Annotations.SOURCE_PATH + " annotation, so gitfn cannot"
          + " tell which files of " + origin + " hold it; use --pin");
    }
    return new RevertTarget(url(fn, repository.getSpec().getUrl()), ref.getBranch(), List.of(path(fn, sourcePath)),
        origin);
  }

  /**
   * A Function whose code is in {@code spec.source.gitRepository}: its URL, the branch its {@code reference}
   * names (checked to be a branch once cloned), and its {@code baseDir}.
   */
  static RevertTarget fromGitSource(Function fn) {
    GitRepositorySource git = fn.getSpec().getSource().getGitRepository();
    String reference = git.getReference() == null ? "" : git.getReference().strip();
    if (reference.startsWith("refs/heads/")) {
      reference = reference.substring("refs/heads/".length());
    }
    if (reference.isEmpty() || FULL_SHA.matcher(reference).matches() || reference.startsWith("refs/")) {
      throw new RollbackException(describe(fn) + " builds reference \"" + reference + "\", not a branch, so there is"
          + " no branch to push a revert to; run its earlier image with --pin");
    }
    String baseDir = git.getBaseDir() == null ? "" : git.getBaseDir();
    return new RevertTarget(url(fn, git.getUrl()), reference, List.of(path(fn, baseDir)), "spec.source.gitRepository");
  }

  /** True when a revert of this target changes files of {@code other} too. */
  public boolean overlaps(RevertTarget other) {
    if (!sameRepository(url, other.url) || !branch.equals(other.branch)) {
      return false;
    }
    return paths.stream().anyMatch(p -> other.paths.stream().anyMatch(q -> within(p, q) || within(q, p)));
  }

  /** The paths, for a message. */
  public String describePaths() {
    return String.join(", ", paths.stream().map(p -> p.equals(WHOLE_REPOSITORY) ? "the whole repository" : p).toList());
  }

  static String describe(Function fn) {
    return "function " + fn.getMetadata().getNamespace() + "/" + fn.getMetadata().getName();
  }

  private static String url(Function fn, String url) {
    if (url == null || url.isBlank()) {
      throw new RollbackException(describe(fn) + " names no repository URL");
    }
    return url.strip();
  }

  // Repository-relative, without ., .. or empty parts; "." for the root.
  private static String path(Function fn, String given) {
    List<String> parts = new ArrayList<>();
    for (String part : given.replace('\\', '/').split("/")) {
      if (part.equals("..")) {
        throw new RollbackException(describe(fn) + " names path \"" + given + "\", which leaves the repository");
      }
      if (!part.isEmpty() && !part.equals(".")) {
        parts.add(part);
      }
    }
    return parts.isEmpty() ? WHOLE_REPOSITORY : String.join("/", parts);
  }

  private static boolean within(String path, String folder) {
    return folder.equals(WHOLE_REPOSITORY) || path.equals(folder) || path.startsWith(folder + "/");
  }

  private static boolean sameRepository(String a, String b) {
    return canonical(a).equals(canonical(b));
  }

  private static String canonical(String url) {
    String trimmed = url.strip();
    while (trimmed.endsWith("/")) {
      trimmed = trimmed.substring(0, trimmed.length() - 1);
    }
    return trimmed.endsWith(".git") ? trimmed.substring(0, trimmed.length() - 4) : trimmed;
  }

  private static String followed(GitRef ref) {
    if (ref == null) {
      return "no ref";
    }
    if (ref.getTag() != null) {
      return "tag " + ref.getTag();
    }
    if (ref.getSemver() != null) {
      return "semver range " + ref.getSemver();
    }
    return "commit " + ref.getCommit();
  }
}
