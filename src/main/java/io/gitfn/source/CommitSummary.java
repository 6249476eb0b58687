package io.gitfn.source;

import java.time.Instant;
import org.eclipse.jgit.lib.PersonIdent;
import org.eclipse.jgit.revwalk.RevCommit;
import org.eclipse.jgit.util.RawParseUtils;

/**
 * What a person recognises a commit by: its subject, its author and when it was written. Whoever pushes writes
 * these, so each is cut to a length a history line can show.
 *
 * @param subject the message's first line, at most {@value #SUBJECT} characters; read from the commit's first bytes,
 *     since a message may be megabytes long
 * @param author the author's name, at most {@value #AUTHOR} characters
 * @param time when the author wrote it, as the commit says (a clock on the author's machine)
 */
public record CommitSummary(String subject, String author, Instant time) {

  static final int SUBJECT = 200;
  static final int AUTHOR = 100;

  public static CommitSummary of(RevCommit commit) {
    PersonIdent author = commit.getAuthorIdent();
    return new CommitSummary(cut(subject(commit), SUBJECT), author == null ? null : cut(author.getName(), AUTHOR),
        author == null ? null : author.getWhenAsInstant());
  }

  private static String subject(RevCommit commit) {
    byte[] raw = commit.getRawBuffer();
    int start = raw == null ? -1 : RawParseUtils.commitMessage(raw, 0);
    if (start < 0) {
      return "";
    }
    // Four bytes a character at most: enough for the subject, whatever the message's length.
    int end = Math.min(raw.length, start + 4 * (SUBJECT + 1));
    String head = RawParseUtils.decode(raw, start, end);
    int newline = head.indexOf('\n');
    return (newline < 0 ? head : head.substring(0, newline)).strip();
  }

  private static String cut(String text, int limit) {
    if (text == null) {
      return null;
    }
    String shown = text.length() > limit ? text.substring(0, limit) + "…" : text;
    return shown.replaceAll("\\p{Cntrl}", " ");
  }
}
