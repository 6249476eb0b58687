package io.gitfn.rollback;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class RevisionsTest {

  private static final String SHA = "0123456789abcdef0123456789abcdef01234567";

  @Test
  void aRevisionNamesItsCommitAndShortensToSevenDigits() {
    assertThat(Revisions.sha("release/2026-11@sha1:" + SHA)).contains(SHA);
    assertThat(Revisions.sha(SHA)).contains(SHA);
    assertThat(Revisions.sha("inline")).isEmpty();
    assertThat(Revisions.sha("main@sha1:0123")).isEmpty();
    assertThat(Revisions.shorten("release/2026-11@sha1:" + SHA)).isEqualTo("release/2026-11@sha1:0123456");
    assertThat(Revisions.shorten(SHA)).isEqualTo("0123456");
    assertThat(Revisions.shorten("inline")).isEqualTo("inline");
    assertThat(Revisions.shorten(null)).isNull();
  }
}
