package io.gitfn.manifest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** A relative Git URL resolves against the infra repository's URL as a Git submodule's does. */
class RelativeGitUrlTest {

  @ParameterizedTest(name = "{0} against {1} is {2}")
  @CsvSource({
      // ./ is the repository itself, written as its URL is, .git or not.
      "./,                  https://git.example.com/org/infra.git,      https://git.example.com/org/infra.git",
      ".,                   https://git.example.com/org/infra,          https://git.example.com/org/infra",
      "./,                  https://git.example.com/org/infra.git/,     https://git.example.com/org/infra.git",
      // Each ../ strips one segment of the base, the repository first; what follows is appended.
      "../orders.git,       https://git.example.com/org/infra.git,      https://git.example.com/org/orders.git",
      "../orders,           https://git.example.com/group/sub/infra,    https://git.example.com/group/sub/orders",
      "../../other/app.git, https://git.example.com/org/infra.git,      https://git.example.com/other/app.git",
      "../../app.git,       https://git.example.com:8443/org/infra.git, https://git.example.com:8443/app.git",
      // ssh:// keeps its user and port; the scp-like form keeps its user and host.
      "./,                  ssh://git@git.example.com:2222/org/infra.git, ssh://git@git.example.com:2222/org/infra.git",
      "../orders.git,       ssh://git@git.example.com/org/infra.git,    ssh://git@git.example.com/org/orders.git",
      "../orders.git,       git@github.com:org/infra.git,               git@github.com:org/orders.git",
      "../../orders.git,    git@github.com:org/infra.git,               git@github.com:orders.git",
      "../orders.git,       git@example.com:/srv/git/infra.git,         git@example.com:/srv/git/orders.git",
      // A local clone's origin may be a path, which local mode reads as a file URL.
      "../orders.git,       file:///srv/git/infra.git,                  file:///srv/git/orders.git",
      "./,                  file:///home/me/gitfn/.git,                 file:///home/me/gitfn/.git",
  })
  void resolvesAsASubmoduleUrl(String relative, String base, String absolute) {
    assertThat(RelativeGitUrl.resolve(relative, base)).isEqualTo(absolute);
  }

  @ParameterizedTest(name = "{0} against {1}")
  @CsvSource({
      "../../../app.git,  https://git.example.com/org/infra.git, `../../../app.git` climbs above the host of"
          + " https://git.example.com/org/infra.git: it has 2 path segments for its 3 `../`",
      "../../app.git,     git@github.com:infra.git,             `../../app.git` climbs above the host of"
          + " git@github.com:infra.git: it has 1 path segment for its 2 `../`",
      "./,                /srv/git/infra.git,                   `/srv/git/infra.git` is not a URL a relative one"
          + " can be resolved against: it needs a scheme (https://host/org/repo.git) or the scp-like form"
          + " (git@host:org/repo.git)",
  })
  void refusesWhatHasNoAnswer(String relative, String base, String message) {
    assertThatThrownBy(() -> RelativeGitUrl.resolve(relative, base))
        .isInstanceOf(IllegalArgumentException.class).hasMessage(message);
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"./../..", "./orders", "..", "../", "../..", "../a/../b.git", "../a//b.git", "../.",
      "../my repo.git", "../a\\b.git"})
  void malformedRelativeUrlsAreRelativeButHaveAProblem(String url) {
    assertThat(RelativeGitUrl.isRelative(url)).isTrue();
    assertThat(RelativeGitUrl.problem(url)).isPresent();
    assertThatThrownBy(() -> RelativeGitUrl.resolve(url, "https://git.example.com/org/infra.git"))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"https://github.com/o/r.git", "git@github.com:o/r.git", "/srv/git/r.git",
      "file:///srv/git/r.git", "orders.git", ".orders"})
  void absoluteUrlsAndPathsAreNotRelative(String url) {
    assertThat(RelativeGitUrl.isRelative(url)).isFalse();
  }
}
