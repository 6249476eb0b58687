package io.gitfn.source;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A Git repository's address as a user wrote it, and the two identities gitfn derives from it.
 *
 * <ul>
 *   <li>{@link #fetchUrl()}: what the Git client connects to. Scheme, user and port matter here, so a mirror
 *       is keyed by it (together with the credentials).
 *   <li>{@link #matchKey()}: {@code host/owner/repo} in lower case, with no scheme, user, port, {@code .git}
 *       or trailing slash. A forge names a repository in several ways (https, ssh, scp-like); a webhook
 *       delivery matches every source whose match key equals the delivery's.
 * </ul>
 *
 * <p>Credentials in an http(s) URL are dropped from both: they belong in a Secret, and a URL is printed in
 * status, events and logs.
 */
public record RepositoryUrl(String fetchUrl, String matchKey) {

  // git@host:owner/repo.git — the scp-like form: no scheme, a colon before the first slash.
  private static final Pattern SCP_LIKE = Pattern.compile("^(?:([^@/:]+)@)?([^/:]+):(?!//)(.+)$");

  public RepositoryUrl {
    if (fetchUrl == null || fetchUrl.isBlank() || matchKey == null || matchKey.isBlank()) {
      throw new IllegalArgumentException("a repository URL needs a fetch URL and a match key");
    }
  }

  /** Parses a URL in any form Git accepts for a remote repository. */
  public static RepositoryUrl parse(String url) {
    if (url == null || url.isBlank()) {
      throw new IllegalArgumentException("repository URL is empty");
    }
    String trimmed = url.trim();
    Matcher scp = SCP_LIKE.matcher(trimmed);
    if (!trimmed.contains("://") && scp.matches()) {
      String user = scp.group(1);
      String host = scp.group(2);
      String path = scp.group(3);
      return new RepositoryUrl(
          (user == null ? "" : user + "@") + host + ":" + stripTrailingSlash(path),
          key(host, path));
    }
    URI uri;
    try {
      uri = new URI(trimmed);
    } catch (URISyntaxException e) {
      throw new IllegalArgumentException("repository URL " + redact(trimmed) + " is not a URL: " + e.getReason());
    }
    String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    if (!scheme.equals("https") && !scheme.equals("http") && !scheme.equals("ssh") && !scheme.equals("git")
        && !scheme.equals("file")) {
      throw new IllegalArgumentException(
          "repository URL " + redact(trimmed) + " must use https, http, ssh or git, or be scp-like (git@host:path)");
    }
    if (scheme.equals("file")) {
      return new RepositoryUrl(stripTrailingSlash(trimmed), "file" + stripGit(stripTrailingSlash(uri.getPath())));
    }
    if (uri.getHost() == null || uri.getPath() == null || uri.getPath().isEmpty() || uri.getPath().equals("/")) {
      throw new IllegalArgumentException("repository URL " + redact(trimmed) + " names no host and repository path");
    }
    // Keep the SSH user (it is part of the address, as in ssh://git@host), never a password; drop http(s) user info.
    String user = scheme.equals("ssh") && uri.getRawUserInfo() != null
        ? uri.getRawUserInfo().replaceFirst(":.*$", "") + "@" : "";
    String port = uri.getPort() < 0 ? "" : ":" + uri.getPort();
    String fetch = scheme + "://" + user + uri.getHost() + port + stripTrailingSlash(uri.getRawPath());
    return new RepositoryUrl(fetch, key(uri.getHost(), uri.getPath()));
  }

  /** The host, lower case and without port ({@code file} for a local repository), as the match key has it. */
  public String host() {
    return matchKey.substring(0, matchKey.indexOf('/'));
  }

  @Override
  public String toString() {
    return fetchUrl;
  }

  private static String key(String host, String path) {
    String p = stripGit(stripTrailingSlash(path));
    while (p.startsWith("/")) {
      p = p.substring(1);
    }
    return (host + "/" + p).toLowerCase(Locale.ROOT);
  }

  private static String stripTrailingSlash(String path) {
    String p = path;
    while (p.endsWith("/")) {
      p = p.substring(0, p.length() - 1);
    }
    return p;
  }

  private static String stripGit(String path) {
    return path.endsWith(".git") ? path.substring(0, path.length() - 4) : path;
  }

  /** The URL with any password replaced, for error messages. */
  static String redact(String url) {
    return url.replaceAll("(://[^/@:]*):[^/@]*@", "$1:***@");
  }
}
