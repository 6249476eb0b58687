package io.gitfn.rollback;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** The words a revert leaves in Git and in error messages. */
class GitRevertTest {

  @Test
  void theMessageNamesTheFunctionAndTheCommitAndListsWhatItUndoes() {
    String message = GitRevert.message("shop/hello", "1a2b3c4", "hello v1", "functions/hello",
        List.of("3c4d5e6 hello v3", "2b3c4d5 hello v2"));

    assertThat(message).isEqualTo("""
        Revert shop/hello to 1a2b3c4

        Restore functions/hello as of 1a2b3c4 (hello v1), undoing:

        3c4d5e6 hello v3
        2b3c4d5 hello v2
        """);
  }

  @Test
  void aLongListIsCut() {
    List<String> undone = IntStream.range(0, GitRevert.MAX_LISTED + 3).mapToObj(i -> "abc" + i + " change").toList();

    String message = GitRevert.message("shop/hello", "1a2b3c4", "", "functions/hello", undone);

    assertThat(message).contains("as of 1a2b3c4, undoing:", "abc49 change\n… and 3 older commits\n")
        .doesNotContain("abc50");
  }

  @Test
  void gitsComplaintsLoseTheirCredentials() {
    GitResult clone = new GitResult(128, "", """
        Cloning into 'work'...
        remote: Repository not found.
        fatal: repository 'https://ghp_secretToken@github.com/acme/infra.git/' not found
        """);
    GitResult push = new GitResult(128, "", "fatal: unable to access 'ssh://git:hunter2@host/x.git': denied\n");
    GitResult silent = new GitResult(1, "", "");

    assertThat(clone.problem()).isEqualTo("fatal: repository 'https://***@github.com/acme/infra.git/' not found");
    assertThat(push.problem()).isEqualTo("fatal: unable to access 'ssh://git:***@host/x.git': denied");
    assertThat(silent.problem()).isEqualTo("git exited with code 1");
    assertThat(GitResult.redact("http://user:pw@127.0.0.1:8080/git/x.git")).isEqualTo("http://***@127.0.0.1:8080/git/x.git");
  }
}
