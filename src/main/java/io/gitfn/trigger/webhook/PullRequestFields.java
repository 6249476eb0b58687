package io.gitfn.trigger.webhook;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The checks every forge's pull-request fields share: a field that decides something (number, commit, branch,
 * label) is refused with its name when it is out of bounds; a field that is only shown (title, author) is cut and
 * cleaned of control characters instead, so that it cannot break a log line or a message.
 */
final class PullRequestFields {

  private PullRequestFields() {}

  /** A positive whole number, such as a pull request's number. */
  static long number(Payload payload, String path) throws MalformedDeliveryException {
    return payload.positiveNumber(path);
  }

  /** A commit id: 7 to 64 hex digits, lower case as every forge sends them. */
  static String sha(Payload payload, String path) throws MalformedDeliveryException {
    String sha = payload.text(path);
    if (!sha.matches("[0-9a-f]{7,64}")) {
      throw new MalformedDeliveryException("payload field " + payload.name(path) + " is not a commit id");
    }
    return sha;
  }

  /** A branch name, checked as Git would and bounded; a full {@code refs/heads/} ref is cut to the name. */
  static String branch(Payload payload, String path) throws MalformedDeliveryException {
    String name = payload.text(path);
    if (name.startsWith("refs/")) {
      if (!name.startsWith("refs/heads/")) {
        throw new MalformedDeliveryException("payload field " + payload.name(path) + " is not a branch: " + name);
      }
      name = name.substring("refs/heads/".length());
    }
    payload.checkedRef(path, "refs/heads/" + name);
    if (name.isEmpty() || name.length() > PullRequestChange.MAX_BRANCH) {
      throw new MalformedDeliveryException("payload field " + payload.name(path) + " is not a branch name of 1 to "
          + PullRequestChange.MAX_BRANCH + " characters");
    }
    return name;
  }

  /**
   * The names at {@code field} of the objects in the list at {@code listPath}; none when the list is missing. The
   * list was cut to {@link PullRequestChange#MAX_LABELS} as it was read (see the paths the parsers declare).
   */
  static List<String> labels(Payload payload, String listPath, String field) throws MalformedDeliveryException {
    List<String> labels = new ArrayList<>();
    for (Payload label : payload.optionalArray(listPath)) {
      String name = label.text(field);
      if (name.length() > PullRequestChange.MAX_LABEL || name.chars().anyMatch(Character::isISOControl)) {
        throw new MalformedDeliveryException("payload field " + label.name(field) + " is not a label name of at most "
            + PullRequestChange.MAX_LABEL + " characters");
      }
      if (labels.size() < PullRequestChange.MAX_LABELS && !labels.contains(name)) {
        labels.add(name);
      }
    }
    return labels;
  }

  /** The first of these text fields that is present, cut to {@code max} characters; empty text when none is. */
  static String shown(Payload payload, int max, String... paths) {
    for (String path : paths) {
      Optional<String> text = payload.optionalText(path);
      if (text.isPresent()) {
        return cut(text.get(), max);
      }
    }
    return "";
  }

  /** Control characters become spaces and the text is cut to {@code max} characters, ending in an ellipsis. */
  static String cut(String text, int max) {
    StringBuilder clean = new StringBuilder(Math.min(text.length(), max));
    for (int i = 0; i < text.length() && clean.length() < max; i++) {
      char c = text.charAt(i);
      clean.append(Character.isISOControl(c) ? ' ' : c);
    }
    if (text.length() > max) {
      clean.setCharAt(max - 1, '…');
    }
    return clean.toString().strip();
  }

  /**
   * Whether two repositories differ, by the ids (or names) the payload gives for them; when either is missing the
   * head repository is unknown (a deleted fork, say) and counts as another repository.
   */
  static boolean differ(Payload payload, String headPath, String basePath) {
    Optional<String> head = payload.optionalScalar(headPath).map(s -> s.toLowerCase(Locale.ROOT));
    Optional<String> base = payload.optionalScalar(basePath).map(s -> s.toLowerCase(Locale.ROOT));
    return head.isEmpty() || base.isEmpty() || !head.equals(base);
  }
}
