package io.gitfn.manifest;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A Function's Git URL written relative to the infra repository that declares it, as a Git submodule's URL may be
 * relative to its superproject: {@code ./} (or {@code .}) is the infra repository itself, {@code ../other.git} a
 * repository beside it on the same server. This is gitfn's extension to Kyma's Function: only a Function read from
 * an infra repository may say it, and it is made absolute before the Function reaches the cluster.
 */
public final class RelativeGitUrl {

  /** What a malformed relative URL should have been, for the messages below. */
  static final String FORMS = "`./` (this repository) or `../name.git` (a repository beside it)";

  // git@host:path: no scheme, a colon before the first slash (as RepositoryUrl reads it).
  private static final Pattern SCP_LIKE = Pattern.compile("([^@/:]+@)?([^/:]+):(?!//)(.*)");
  private static final Pattern WITH_SCHEME = Pattern.compile("([a-zA-Z][a-zA-Z0-9+.-]*://[^/]*)(/.*)?");
  private static final String UP = "../";

  private RelativeGitUrl() {
  }

  /** Whether {@code url} is written relative to the infra repository (well formed or not). */
  public static boolean isRelative(String url) {
    String u = url.strip();
    return u.equals(".") || u.equals("..") || u.startsWith("./") || u.startsWith(UP);
  }

  /** Why a relative {@code url} is malformed, or empty when it is one of the two forms gitfn resolves. */
  static Optional<String> problem(String url) {
    String u = url.strip();
    if (u.equals(".") || u.equals("./")) {
      return Optional.empty();
    }
    if (u.startsWith("./")) {
      return Optional.of("`" + u + "`: `./` names this repository and takes nothing after it; use " + FORMS);
    }
    String tail = u;
    while (tail.startsWith(UP)) {
      tail = tail.substring(UP.length());
    }
    if (tail.isEmpty() || tail.equals("..") || tail.equals(".")) {
      return Optional.of("`" + u + "` names a folder of the server, not a repository; use " + FORMS);
    }
    if (!u.startsWith(UP)) {
      return Optional.of("`" + u + "` is not a relative Git URL; use " + FORMS);
    }
    for (String segment : tail.split("/", -1)) {
      if (segment.isEmpty() || segment.equals(".") || segment.equals("..")) {
        return Optional.of("`" + u + "`: after its leading `../` a relative URL names a path without empty, `.`"
            + " or `..` segments; use " + FORMS);
      }
    }
    if (tail.chars().anyMatch(c -> Character.isWhitespace(c) || c == '\\' || c == ':')) {
      return Optional.of("`" + u + "` holds a space, `\\` or `:`; use " + FORMS);
    }
    return Optional.empty();
  }

  /**
   * The absolute URL {@code relative} names, resolved against {@code base} (the infra repository's URL) as Git
   * resolves a submodule's: {@code ./} is {@code base} itself; each {@code ../} strips one path segment of
   * {@code base}, and what follows is appended.
   *
   * @param relative a well-formed relative URL ({@link #problem} is empty)
   * @param base a URL with a scheme ({@code https://host/org/repo.git}, {@code ssh://git@host/org/repo.git},
   *     {@code file:///srv/repo}) or scp-like ({@code git@host:org/repo.git})
   * @throws IllegalArgumentException when {@code relative} is malformed, {@code base} is neither form, or the
   *     {@code ../} climb above the host
   */
  public static String resolve(String relative, String base) {
    problem(relative).ifPresent(problem -> {
      throw new IllegalArgumentException(problem);
    });
    Base parsed = Base.parse(base.strip());
    String u = relative.strip();
    if (u.equals(".") || u.equals("./")) {
      return parsed.join(parsed.segments());
    }
    int ups = 0;
    while (u.startsWith(UP)) {
      u = u.substring(UP.length());
      ups++;
    }
    List<String> segments = parsed.segments();
    if (ups > segments.size()) {
      throw new IllegalArgumentException("`" + relative.strip() + "` climbs above the host of " + parsed.join(segments)
          + ": it has " + segments.size() + " path segment" + (segments.size() == 1 ? "" : "s") + " for its "
          + ups + " `../`");
    }
    List<String> resolved = new ArrayList<>(segments.subList(0, segments.size() - ups));
    resolved.addAll(Arrays.asList(u.split("/")));
    return parsed.join(resolved);
  }

  /** A base URL as what comes before its path ({@code https://host/}, {@code git@host:}) and the path's segments. */
  private record Base(String prefix, List<String> segments) {

    static Base parse(String url) {
      Matcher scheme = WITH_SCHEME.matcher(url);
      if (scheme.matches()) {
        return new Base(scheme.group(1) + "/", segments(scheme.group(2) == null ? "" : scheme.group(2)));
      }
      Matcher scp = SCP_LIKE.matcher(url);
      if (scp.matches()) {
        String path = scp.group(3);
        // git@host:/srv/repo.git names an absolute path on the host; keep its slash before the segments.
        String lead = path.startsWith("/") ? "/" : "";
        return new Base((scp.group(1) == null ? "" : scp.group(1)) + scp.group(2) + ":" + lead, segments(path));
      }
      throw new IllegalArgumentException("`" + url + "` is not a URL a relative one can be resolved against: it"
          + " needs a scheme (https://host/org/repo.git) or the scp-like form (git@host:org/repo.git)");
    }

    private static List<String> segments(String path) {
      return Arrays.stream(path.split("/")).filter(s -> !s.isEmpty()).toList();
    }

    String join(List<String> path) {
      return prefix + String.join("/", path);
    }
  }
}
