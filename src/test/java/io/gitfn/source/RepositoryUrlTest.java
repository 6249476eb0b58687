package io.gitfn.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class RepositoryUrlTest {

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {
      "https://github.com/Kyma-Project/Serverless.git",
      "https://github.com/kyma-project/serverless",
      "https://github.com/kyma-project/serverless/",
      "http://github.com:80/kyma-project/serverless.git",
      "https://user:token@github.com/kyma-project/serverless.git",
      "ssh://git@github.com/kyma-project/serverless.git",
      "ssh://git@github.com:22/kyma-project/serverless",
      "git@github.com:kyma-project/serverless.git",
      "github.com:kyma-project/serverless",
      "git://github.com/kyma-project/serverless.git",
  })
  void everyFormOfOneRepositoryHasTheSameMatchKey(String url) {
    assertThat(RepositoryUrl.parse(url).matchKey()).isEqualTo("github.com/kyma-project/serverless");
  }

  @ParameterizedTest(name = "{0} is fetched from {1}")
  @CsvSource({
      "https://github.com/org/repo.git/,             https://github.com/org/repo.git",
      "https://me:token@git.example.com/org/repo.git, https://git.example.com/org/repo.git",
      "ssh://git@127.0.0.1:2222/org/repo.git,         ssh://git@127.0.0.1:2222/org/repo.git",
      "ssh://git:s3cret@example.com/org/repo.git,     ssh://git@example.com/org/repo.git",
      "git@gitlab.com:group/sub/repo.git,             git@gitlab.com:group/sub/repo.git",
  })
  void theFetchUrlKeepsSchemeUserAndPortButNeverAPassword(String url, String fetch) {
    assertThat(RepositoryUrl.parse(url).fetchUrl()).isEqualTo(fetch);
  }

  @ParameterizedTest(name = "[{index}] \"{0}\"")
  @ValueSource(strings = {"", "  ", "ftp://example.com/repo.git", "https://example.com", "https://example.com/"})
  void rejectsWhatIsNotARepositoryUrl(String url) {
    assertThatThrownBy(() -> RepositoryUrl.parse(url)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void errorsNeverRepeatAPassword() {
    assertThatThrownBy(() -> RepositoryUrl.parse("ftp://me:s3cret@example.com/repo.git"))
        .hasMessageContaining("me:***@")
        .hasMessageNotContaining("s3cret");
  }

  @Test
  void subgroupsStayInTheKey() {
    assertThat(RepositoryUrl.parse("https://gitlab.com/group/sub/Repo.git").matchKey())
        .isEqualTo("gitlab.com/group/sub/repo");
  }

  /** Mirror, MirrorChecks and the reconcilers log a RepositoryUrl through its toString. */
  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {
      "https://gitfn-bot:s3cret@git.example.com/org/repo.git",
      "http://s3cret@git.example.com/org/repo.git",
      "ssh://git:s3cret@git.example.com/org/repo.git",
  })
  void aUrlIsLoggedWithoutItsSecret(String url) {
    assertThat(RepositoryUrl.parse(url).toString()).doesNotContain("s3cret").contains("git.example.com/org/repo");
  }

  @Test
  void anInvalidUrlIsNamedInItsErrorWithoutItsPassword() {
    assertThatThrownBy(() -> RepositoryUrl.parse("https://gitfn-bot:s3cret@git.example.com"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("https://gitfn-bot:***@git.example.com")
        .hasMessageNotContaining("s3cret");
  }
}
