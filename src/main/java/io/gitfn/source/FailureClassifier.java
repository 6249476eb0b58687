package io.gitfn.source;

import io.gitfn.source.SourceException.Kind;
import java.io.InterruptedIOException;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.util.Locale;
import org.eclipse.jgit.errors.NoRemoteRepositoryException;
import org.eclipse.jgit.transport.URIish;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns what JGit threw into a {@link SourceException} that says what failed, where and what to do. JGit
 * reports most transport failures as {@code TransportException} with only a text to tell them apart, so the
 * texts it uses (over HTTP and over MINA sshd) are matched here, and nowhere else.
 */
final class FailureClassifier {

  private static final Logger LOG = LoggerFactory.getLogger(FailureClassifier.class);

  private FailureClassifier() {}

  /**
   * @param operation what was being done, like "ls-remote" or "fetch"
   * @param url the repository's password-free fetch URL
   */
  static SourceException classify(Throwable failure, String operation, String url) {
    for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
      if (cause instanceof SourceException ours) {
        return ours; // gitfn's own limit, raised inside JGit's call
      }
    }
    String text = allMessages(failure).toLowerCase(Locale.ROOT);
    String where = RepositoryUrl.redact(url);
    if (text.contains("server key did not validate") || text.contains("host key") && text.contains("changed")) {
      return new SourceException(
          Kind.UNKNOWN_HOST_KEY,
          "the SSH host key of " + hostOf(url) + " is not trusted (" + operation + " " + where
              + "); add the host's key to known_hosts in the Secret or in the controller's config",
          failure);
    }
    if (text.contains("not authorized")
        || text.contains("cannot log in")
        || text.contains("authentication is required")
        || text.contains("authentication not supported")
        || text.contains("no more authentication methods")
        || text.contains("auth fail")
        || text.contains("authentication failed")
        || text.contains("publickey")
        || text.contains("not permitted")
        || text.contains("403 forbidden")) {
      return new SourceException(
          Kind.AUTHENTICATION,
          operation + " " + where + " was refused: authentication failed; check the username and password or"
              + " token, or that the SSH key is a deploy key of this repository, in the Secret",
          failure);
    }
    if (hasCause(failure, NoRemoteRepositoryException.class)
        || text.contains("repository not found")
        || text.contains("does not appear to be a git repository")
        || text.contains("not found")) {
      return new SourceException(
          Kind.REPOSITORY_NOT_FOUND,
          "repository " + where + " does not exist or is not visible with these credentials; check the URL",
          failure);
    }
    if (hasCause(failure, SocketTimeoutException.class)
        || hasCause(failure, InterruptedIOException.class)
        || text.contains("timed out")
        || text.contains("timeout")) {
      return new SourceException(
          Kind.TIMEOUT, operation + " " + where + " timed out; it will be tried again", failure);
    }
    String reason;
    if (hasCause(failure, UnknownHostException.class)) {
      reason = "host " + hostOf(url) + " is unknown to DNS";
    } else if (hasCause(failure, ConnectException.class)) {
      reason = "the connection was refused";
    } else {
      // The server's own words (an HTTP error page, an ERR line) may be anything the server likes; they go to the
      // controller's log, never into status, where whoever reads the resource would see them.
      LOG.warn("{} {} failed: {}", operation, where, RepositoryUrl.redact(allMessages(failure).strip()));
      reason = "the server's answer could not be used (" + rootType(failure) + "; the controller's log has the"
          + " details)";
    }
    return new SourceException(
        Kind.TRANSPORT, operation + " " + where + " failed: " + reason + "; it will be tried again", failure);
  }

  private static String hostOf(String url) {
    try {
      URIish uri = new URIish(url);
      return uri.getHost() + (uri.getPort() > 0 ? ":" + uri.getPort() : "");
    } catch (java.net.URISyntaxException e) {
      return "the server";
    }
  }

  private static String allMessages(Throwable failure) {
    StringBuilder text = new StringBuilder();
    for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
      text.append(t.getClass().getSimpleName()).append(": ").append(t.getMessage()).append('\n');
    }
    return text.toString();
  }

  private static boolean hasCause(Throwable failure, Class<? extends Throwable> type) {
    for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (type.isInstance(t)) {
        return true;
      }
    }
    return false;
  }

  private static String rootType(Throwable failure) {
    Throwable root = failure;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    return root.getClass().getSimpleName();
  }
}
