package io.gitfn.rollback;

import io.gitfn.api.function.Function;
import io.gitfn.api.function.FunctionHistoryEntry;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The revisions in a Function's {@code status.history}, and which one a user's {@code --to} names: the exact
 * revision string, its full SHA, or a prefix of at least seven hex digits that only one revision has.
 */
public final class KnownRevisions {

  /** The outcomes after which the entry's image exists. */
  static final Set<String> HAS_IMAGE = Set.of("Succeeded", "Reused");

  private static final Pattern HEX = Pattern.compile("[0-9a-fA-F]+");
  // A revision as gitfn prints it shortened, like main@sha1:1a2b3c4.
  private static final Pattern SHORTENED = Pattern.compile(".+@sha1:[0-9a-f]{" + Revisions.SHORT_SHA + ",40}");

  private final String function;
  private final String name;
  private final List<FunctionHistoryEntry> history;

  KnownRevisions(String namespace, String name, List<FunctionHistoryEntry> history) {
    this.function = "function " + namespace + "/" + name;
    this.name = name;
    this.history = history == null ? List.of() : List.copyOf(history);
  }

  public static KnownRevisions of(Function fn) {
    return new KnownRevisions(fn.getMetadata().getNamespace(), fn.getMetadata().getName(),
        fn.getStatus() == null ? null : fn.getStatus().getHistory());
  }

  /**
   * The newest entry with an image of the one revision {@code query} names: what a pin runs.
   *
   * @throws RollbackException when no revision or several match, when its builds all failed, or when it ran
   *     several images (as {@code inline} can), so that a pin could not say which
   */
  public FunctionHistoryEntry pinnable(String query) {
    String revision = theOne(query).orElseThrow(() -> notFound(query, "no earlier image to pin"));
    List<FunctionHistoryEntry> usable = entriesOf(revision).stream()
        .filter(KnownRevisions::hasImage)
        .toList();
    if (usable.isEmpty()) {
      throw new RollbackException("the build of " + Revisions.shorten(revision) + " failed for " + function
          + ", so there is no image to pin; pick a Succeeded or Reused revision: " + describe(pinnableRevisions()));
    }
    Set<String> images = usable.stream().map(FunctionHistoryEntry::getImage).collect(Collectors.toSet());
    if (images.size() > 1) {
      throw new RollbackException("revision " + revision + " of " + function + " ran " + images.size()
          + " different images, so a pin to it cannot say which; change the Function instead");
    }
    return usable.get(0);
  }

  /**
   * The commit {@code query} names, for a revert in Git. A revision in the history gives its SHA; a SHA (or
   * prefix) the history does not know is handed to Git as it is, since the history keeps only the last ten.
   */
  public Commit commit(String query) {
    Optional<String> revision = theOne(query);
    if (revision.isPresent()) {
      String sha = Revisions.sha(revision.get()).orElseThrow(() -> new RollbackException("revision "
          + revision.get() + " of " + function + " is not a Git commit, so there is nothing to revert to in Git;"
          + " pin it with --pin"));
      return new Commit(sha, entriesOf(revision.get()).get(0));
    }
    Optional<String> sha = Revisions.sha(query);
    if (sha.isPresent()) {
      return new Commit(sha.get(), null);
    }
    if (isShaPrefix(query)) {
      return new Commit(query.toLowerCase(Locale.ROOT), null);
    }
    throw notFound(query, "nothing to revert to");
  }

  /**
   * A commit to revert to, and the history entry of its revision when the history has one.
   *
   * @param commitish a full SHA, or a prefix that only Git can resolve
   */
  public record Commit(String commitish, FunctionHistoryEntry known) {

    /** True when the history says the image of this commit exists, so rolling back to it needs no build. */
    public boolean hasImage() {
      return known != null && HAS_IMAGE.contains(known.getOutcome()) && known.getImage() != null;
    }
  }

  // The one revision string query names; empty when none does; an error when several do.
  private Optional<String> theOne(String query) {
    String given = query == null ? "" : query.strip();
    if (given.isEmpty()) {
      throw new RollbackException("give a revision with --to, as gitfn history function " + name + " shows it");
    }
    List<String> exact = revisions().stream().filter(given::equals).toList();
    if (!exact.isEmpty()) {
      return Optional.of(exact.get(0));
    }
    if (HEX.matcher(given).matches() && given.length() < Revisions.SHORT_SHA) {
      throw new RollbackException("\"" + given + "\" is too short to name a commit of " + function
          + "; give at least " + Revisions.SHORT_SHA + " hex digits");
    }
    List<String> matching;
    if (isShaPrefix(given)) {
      String prefix = given.toLowerCase(Locale.ROOT);
      matching = revisions().stream()
          .filter(r -> Revisions.sha(r).map(sha -> sha.startsWith(prefix)).orElse(false))
          .toList();
    } else if (SHORTENED.matcher(given).matches()) {
      matching = revisions().stream().filter(r -> Revisions.sha(r).isPresent() && r.startsWith(given)).toList();
    } else {
      return Optional.empty();
    }
    if (matching.size() > 1) {
      throw new RollbackException("\"" + given + "\" is ambiguous for " + function + ": it matches "
          + String.join(", ", matching) + "; give more of the SHA");
    }
    return matching.stream().findFirst();
  }

  private RollbackException notFound(String query, String consequence) {
    if (history.isEmpty()) {
      return new RollbackException(function + " has no history yet, so " + consequence
          + "; gitfn history function " + name + " lists the revisions once it has run");
    }
    return new RollbackException(function + " has no revision \"" + query.strip() + "\" in its history; known: "
        + describe(revisions()) + " (gitfn history function " + name + ")");
  }

  private static boolean isShaPrefix(String text) {
    return text.length() >= Revisions.SHORT_SHA && text.length() <= 40 && HEX.matcher(text).matches();
  }

  // Distinct revision strings, newest first.
  private List<String> revisions() {
    return history.stream().map(FunctionHistoryEntry::getRevision).filter(r -> r != null).distinct().toList();
  }

  /** The revisions {@link #pinnable} accepts, newest first: those with an entry whose image exists. */
  public List<String> pinnableRevisions() {
    return revisions().stream().filter(r -> entriesOf(r).stream().anyMatch(KnownRevisions::hasImage)).toList();
  }

  private static boolean hasImage(FunctionHistoryEntry entry) {
    return HAS_IMAGE.contains(entry.getOutcome()) && entry.getImage() != null;
  }

  private List<FunctionHistoryEntry> entriesOf(String revision) {
    return history.stream().filter(e -> revision.equals(e.getRevision())).toList();
  }

  // "main@sha1:1a2b3c4 (Succeeded), …" with the newest outcome of each revision.
  private String describe(List<String> revisions) {
    if (revisions.isEmpty()) {
      return "none";
    }
    Map<String, String> newestOutcome = new LinkedHashMap<>();
    for (String revision : revisions) {
      newestOutcome.put(revision, entriesOf(revision).get(0).getOutcome());
    }
    List<String> parts = new ArrayList<>();
    newestOutcome.forEach((revision, outcome) -> parts.add(Revisions.shorten(revision) + " (" + outcome + ")"));
    return String.join(", ", parts);
  }
}
