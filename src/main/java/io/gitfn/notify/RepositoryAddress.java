package io.gitfn.notify;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A repository URL taken apart: where the forge's web server is and the repository's path on it. SSH URLs
 * (scp-like too) point at the same host over https: the forge's API is never on the SSH port.
 *
 * @param scheme {@code https} or {@code http}, the scheme of the forge's web server
 * @param host the host, lower case
 * @param port the web server's port, or -1 for the scheme's default (always -1 for an SSH URL)
 * @param segments the repository's path, without {@code .git}, never empty, no segment empty
 * @param ssh whether the URL was an SSH one, whose path carries no web path prefix
 * @param shown the URL for messages, with any password masked
 */
record RepositoryAddress(String scheme, String host, int port, List<String> segments, boolean ssh, String shown) {

  // git@host:owner/repo.git: no scheme, a colon before the first slash, as Git reads it.
  private static final Pattern SCP_LIKE = Pattern.compile("(?:([^@/:]+)@)?([^/:]+):(?!//)(.+)");
  private static final Pattern PASSWORD = Pattern.compile("(://[^/@:]*):[^/@]*@");
  // user:password@host:path would pass for scp-like with host "user"; Git itself reads it that way too.
  private static final Pattern SCP_PASSWORD = Pattern.compile("([^@/:]+):[^@/]*@(.*)");

  RepositoryAddress {
    segments = List.copyOf(segments);
  }

  static RepositoryAddress parse(String url) {
    if (url == null || url.isBlank()) {
      throw new IllegalArgumentException("repository URL is empty");
    }
    String text = url.strip();
    String shown = PASSWORD.matcher(text).replaceFirst("$1:***@");
    Matcher scpPassword = SCP_PASSWORD.matcher(text);
    if (!text.contains("://") && scpPassword.matches()) {
      throw problem(scpPassword.group(1) + ":***@" + scpPassword.group(2),
          "it has a password in it; put the token in the commit-status Secret instead");
    }
    Matcher scp = SCP_LIKE.matcher(text);
    if (!text.contains("://") && scp.matches()) {
      return new RepositoryAddress("https", scp.group(2).toLowerCase(Locale.ROOT), -1,
          segments(scp.group(3), shown), true, shown);
    }
    URI uri;
    try {
      uri = new URI(text);
    } catch (URISyntaxException e) {
      throw problem(shown, "it is not a URL (" + e.getReason() + ")");
    }
    String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    if (!List.of("https", "http", "ssh").contains(scheme)) {
      throw problem(shown, "a commit status needs an https, http or ssh URL, or an scp-like one (git@host:owner/repo)");
    }
    if (uri.getRawUserInfo() != null && uri.getRawUserInfo().contains(":")) {
      throw problem(shown, "it has a password in it; put the token in the commit-status Secret instead");
    }
    if (uri.getHost() == null) {
      throw problem(shown, "it names no host");
    }
    if (uri.getRawQuery() != null || uri.getRawFragment() != null) {
      throw problem(shown, "a repository URL has no query or fragment");
    }
    boolean ssh = scheme.equals("ssh");
    return new RepositoryAddress(ssh ? "https" : scheme, uri.getHost().toLowerCase(Locale.ROOT),
        ssh ? -1 : uri.getPort(), segments(uri.getPath(), shown), ssh, shown);
  }

  /** {@code scheme://host[:port]} of the forge's web server. */
  String origin() {
    return scheme + "://" + host + (port < 0 ? "" : ":" + port);
  }

  IllegalArgumentException problem(String what) {
    return problem(shown, what);
  }

  private static IllegalArgumentException problem(String shown, String what) {
    return new IllegalArgumentException("repository URL " + shown + ": " + what);
  }

  private static List<String> segments(String path, String shown) {
    String p = path == null ? "" : stripTrailingSlashes(path);
    if (p.endsWith(".git")) {
      p = stripTrailingSlashes(p.substring(0, p.length() - ".git".length()));
    }
    while (p.startsWith("/")) {
      p = p.substring(1);
    }
    if (p.isEmpty()) {
      throw problem(shown, "it names no repository path");
    }
    List<String> segments = Arrays.asList(p.split("/", -1));
    if (segments.stream().anyMatch(s -> s.isEmpty() || s.equals(".") || s.equals(".."))) {
      throw problem(shown, "its path has an empty, `.` or `..` segment");
    }
    return segments;
  }

  private static String stripTrailingSlashes(String path) {
    String p = path;
    while (p.endsWith("/")) {
      p = p.substring(0, p.length() - 1);
    }
    return p;
  }
}
