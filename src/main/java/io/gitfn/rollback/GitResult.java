package io.gitfn.rollback;

import java.util.List;
import java.util.regex.Pattern;

/** What one {@code git} run printed, and its exit code. */
record GitResult(int exitCode, String out, String err) {

  private static final int MAX_PROBLEM = 400;
  private static final Pattern HTTP_USER_INFO = Pattern.compile("(?i)(https?://)[^/@\\s]+@");
  private static final Pattern PASSWORD = Pattern.compile("(://[^/@:\\s]*):[^/@\\s]*@");

  boolean ok() {
    return exitCode == 0;
  }

  /**
   * What went wrong, in one line: git's {@code fatal:} and {@code error:} lines (or all it said), with any user
   * name, token or password in a URL replaced by {@code ***}.
   */
  String problem() {
    List<String> lines = err.lines().map(String::strip).filter(l -> !l.isEmpty()).toList();
    List<String> errors = lines.stream().filter(l -> l.startsWith("fatal:") || l.startsWith("error:")).toList();
    String text = String.join("; ", errors.isEmpty() ? lines : errors);
    if (text.isEmpty()) {
      text = "git exited with code " + exitCode;
    }
    text = redact(text);
    return text.length() > MAX_PROBLEM ? text.substring(0, MAX_PROBLEM - 1) + "…" : text;
  }

  /** {@code text} with credentials in URLs replaced: all of an HTTP URL's user info, else the password. */
  static String redact(String text) {
    String withoutHttpUsers = HTTP_USER_INFO.matcher(text).replaceAll("$1***@");
    return PASSWORD.matcher(withoutHttpUsers).replaceAll("$1:***@");
  }
}
