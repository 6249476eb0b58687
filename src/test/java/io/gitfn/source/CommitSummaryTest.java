package io.gitfn.source;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import org.eclipse.jgit.revwalk.RevCommit;
import org.junit.jupiter.api.Test;

/** A commit as a history line shows it: whoever pushed wrote every byte, so each part is bounded. */
class CommitSummaryTest {

  private static final String HEADER = "tree 4b825dc642cb6eb9a060e54bf8d69288fbee4904\n"
      + "author %s <ada@example.com> 1764151200 +0100\n"
      + "committer Bob <bob@example.com> 1764151300 +0000\n\n";

  @Test
  void theSubjectIsTheFirstLineAndTheTimeIsTheAuthors() {
    CommitSummary summary = summary("Ada Lovelace", "Say hello in German\n\nBecause Berlin asked.\n");

    assertThat(summary).isEqualTo(new CommitSummary("Say hello in German", "Ada Lovelace",
        Instant.parse("2025-11-26T10:00:00Z")));
  }

  @Test
  void aMessageOfMegabytesOnOneLineIsCutFromItsFirstBytes() {
    CommitSummary summary = summary("Ada", "x".repeat(8 * 1024 * 1024));

    assertThat(summary.subject()).hasSize(CommitSummary.SUBJECT + 1).endsWith("…");
  }

  @Test
  void aLongNameAndControlCharactersAreTamed() {
    CommitSummary summary = summary("A".repeat(5000), "bell\u0007 and \u001B[31mred\n");

    assertThat(summary.author()).hasSize(CommitSummary.AUTHOR + 1);
    assertThat(summary.subject()).isEqualTo("bell  and  [31mred");
  }

  @Test
  void aCommitWithNoMessageHasAnEmptySubject() {
    assertThat(summary("Ada", "").subject()).isEmpty();
  }

  private static CommitSummary summary(String author, String message) {
    byte[] raw = (HEADER.formatted(author) + message).getBytes(StandardCharsets.UTF_8);
    return CommitSummary.of(RevCommit.parse(raw));
  }
}
