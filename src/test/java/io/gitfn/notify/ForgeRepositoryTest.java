package io.gitfn.notify;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** How a repository URL, and the spec's forge and API override, become a forge, an API base and names. */
class ForgeRepositoryTest {

  private static Optional<Forge> forge(String id) {
    return Optional.ofNullable(id).map(Forge::parse);
  }

  private static Optional<URI> api(String override) {
    return Optional.ofNullable(override).map(URI::create);
  }

  @ParameterizedTest(name = "{0} ({1}, {2})")
  @CsvSource(delimiter = '|', nullValues = "-", textBlock = """
      # URL                                           | forge            | API override                  | forge found      | API base                              | web page                                         | owner     | name
      https://github.com/org/repo.git                 | -                | -                             | GITHUB           | https://api.github.com                | https://github.com/org/repo                      | org       | repo
      https://github.com/org/repo/                    | -                | -                             | GITHUB           | https://api.github.com                | https://github.com/org/repo                      | org       | repo
      https://GitHub.com/Org/Repo.git                 | -                | -                             | GITHUB           | https://api.github.com                | https://github.com/Org/Repo                      | Org       | Repo
      git@github.com:org/repo.git                     | -                | -                             | GITHUB           | https://api.github.com                | https://github.com/org/repo                      | org       | repo
      ssh://git@github.com/org/repo.git               | -                | -                             | GITHUB           | https://api.github.com                | https://github.com/org/repo                      | org       | repo
      ssh://git@ssh.github.com:443/org/repo.git       | -                | -                             | GITHUB           | https://api.github.com                | https://github.com/org/repo                      | org       | repo
      https://ghe.example/org/repo.git                | github           | -                             | GITHUB           | https://ghe.example/api/v3            | https://ghe.example/org/repo                     | org       | repo
      git@ghe.example:org/repo.git                    | github           | https://ghe.example/api/v3/   | GITHUB           | https://ghe.example/api/v3            | https://ghe.example/org/repo                     | org       | repo
      https://gitlab.com/group/sub/repo.git           | -                | -                             | GITLAB           | https://gitlab.com/api/v4             | https://gitlab.com/group/sub/repo                | group/sub | repo
      ssh://git@gitlab.example:2222/group/repo.git    | gitlab           | -                             | GITLAB           | https://gitlab.example/api/v4         | https://gitlab.example/group/repo                | group     | repo
      https://h.example/gitlab/group/repo.git         | gitlab           | https://h.example/gitlab/api/v4 | GITLAB         | https://h.example/gitlab/api/v4       | https://h.example/gitlab/group/repo              | group     | repo
      https://gitea.com/org/repo                      | -                | -                             | GITEA            | https://gitea.com/api/v1              | https://gitea.com/org/repo                       | org       | repo
      https://h.example/gitea/org/repo.git            | gitea            | -                             | GITEA            | https://h.example/gitea/api/v1        | https://h.example/gitea/org/repo                 | org       | repo
      http://127.0.0.1:3000/org/repo.git              | gitea            | -                             | GITEA            | http://127.0.0.1:3000/api/v1          | http://127.0.0.1:3000/org/repo                   | org       | repo
      git@git.example:org/repo.git                    | gitea            | http://127.0.0.1:3000/api/v1  | GITEA            | http://127.0.0.1:3000/api/v1          | https://git.example/org/repo                     | org       | repo
      https://codeberg.org/org/repo.git               | -                | -                             | FORGEJO          | https://codeberg.org/api/v1           | https://codeberg.org/org/repo                    | org       | repo
      https://forgejo.example/org/repo.git            | forgejo          | -                             | FORGEJO          | https://forgejo.example/api/v1        | https://forgejo.example/org/repo                 | org       | repo
      https://alice@bitbucket.org/ws/repo.git         | -                | -                             | BITBUCKET_CLOUD  | https://api.bitbucket.org/2.0         | https://bitbucket.org/ws/repo                    | ws        | repo
      git@bitbucket.org:ws/repo.git                   | -                | -                             | BITBUCKET_CLOUD  | https://api.bitbucket.org/2.0         | https://bitbucket.org/ws/repo                    | ws        | repo
      https://bb.example/scm/PROJ/repo.git            | bitbucket-server | -                             | BITBUCKET_SERVER | https://bb.example/rest/api/latest    | https://bb.example/projects/PROJ/repos/repo      | PROJ      | repo
      https://bb.example:8443/bitbucket/scm/PROJ/repo.git | bitbucket-server | -                         | BITBUCKET_SERVER | https://bb.example:8443/bitbucket/rest/api/latest | https://bb.example:8443/bitbucket/projects/PROJ/repos/repo | PROJ | repo
      https://bb.example/scm/~alice/repo.git          | bitbucket-server | -                             | BITBUCKET_SERVER | https://bb.example/rest/api/latest    | https://bb.example/users/alice/repos/repo        | ~alice    | repo
      ssh://git@bb.example:7999/PROJ/repo.git         | bitbucket-server | -                             | BITBUCKET_SERVER | https://bb.example/rest/api/latest    | https://bb.example/projects/PROJ/repos/repo      | PROJ      | repo
      """)
  void aRepositoryUrlNamesItsForgeApiAndRepository(String url, String forge, String override, Forge expectedForge,
      String expectedApi, String expectedWeb, String owner, String name) {
    ForgeRepository repository = ForgeRepository.of(url, forge(forge), api(override));

    assertThat(repository).isEqualTo(
        new ForgeRepository(expectedForge, URI.create(expectedApi), URI.create(expectedWeb), owner, name));
  }

  @Test
  void theFullPathJoinsANamespaceAndItsProject() {
    assertThat(Samples.repository("https://gitlab.com/group/sub/repo.git").fullPath()).isEqualTo("group/sub/repo");
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', nullValues = "-", textBlock = """
      # URL                                      | forge            | API override    | message
      https://git.example.com/a/b.git            | -                | -               | repository URL https://git.example.com/a/b.git: cannot tell which forge hosts git.example.com; set spec.commitStatus.forge
      git@git.example.com:a/b.git                | -                | -               | repository URL git@git.example.com:a/b.git: cannot tell which forge hosts git.example.com; set spec.commitStatus.forge
      https://alice:hunter2@github.com/org/r.git | -                | -               | repository URL https://alice:***@github.com/org/r.git: it has a password in it; put the token in the commit-status Secret instead
      alice:hunter2@github.com:org/r.git         | -                | -               | repository URL alice:***@github.com:org/r.git: it has a password in it; put the token in the commit-status Secret instead
      ftp://github.com/org/repo.git              | -                | -               | repository URL ftp://github.com/org/repo.git: a commit status needs an https, http or ssh URL, or an scp-like one (git@host:owner/repo)
      https://github.com/org                     | -                | -               | repository URL https://github.com/org: a GitHub repository URL names an owner and a repository (owner/repo), not org
      https://github.com/org/sub/repo            | -                | -               | repository URL https://github.com/org/sub/repo: a GitHub repository URL names an owner and a repository (owner/repo), not org/sub/repo
      https://github.com/                        | -                | -               | repository URL https://github.com/: it names no repository path
      https://github.com/org//repo               | -                | -               | repository URL https://github.com/org//repo: its path has an empty, `.` or `..` segment
      https://github.com/org/../repo             | -                | -               | repository URL https://github.com/org/../repo: its path has an empty, `.` or `..` segment
      https://github.com/org/repo?ref=main       | -                | -               | repository URL https://github.com/org/repo?ref=main: a repository URL has no query or fragment
      https://gitlab.com/repo                    | -                | -               | repository URL https://gitlab.com/repo: a GitLab repository URL names a group and a project (group/project)
      https://bb.example/PROJ/repo.git           | bitbucket-server | -               | repository URL https://bb.example/PROJ/repo.git: a Bitbucket Server clone URL over http(s) has the form https://host[/context]/scm/PROJECT/repo.git
      https://bitbucket.example/ws/repo.git      | bitbucket        | -               | repository URL https://bitbucket.example/ws/repo.git: Bitbucket Cloud is at bitbucket.org, not bitbucket.example; a self-hosted Bitbucket is forge bitbucket-server
      https://github.com/org/repo.git            | -                | ftp://h/api     | commit-status API URL ftp://h/api: it is not an absolute http or https URL
      https://github.com/org/repo.git            | -                | https://u:p@h/a | commit-status API URL h: it has user info in it; put the token in the commit-status Secret instead
      """)
  void aUrlThatCannotBeUsedIsRefusedWithWhatIsWrong(String url, String forge, String override, String message) {
    assertThatThrownBy(() -> ForgeRepository.of(url, forge(forge), api(override)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(message)
        .hasMessageNotContaining("hunter2");
  }

  @Test
  void anEmptyUrlIsRefused() {
    assertThatThrownBy(() -> ForgeRepository.of("  ", Optional.empty(), Optional.empty()))
        .hasMessage("repository URL is empty");
  }
}
