package io.gitfn.reconcile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gitfn.source.RepositoryUrl;
import java.util.List;
import org.junit.jupiter.api.Test;

class GitHostsTest {

  @Test
  void noPatternAllowsEveryHost() {
    assertThat(GitHosts.ANY.allows("anything.example")).isTrue();
  }

  @Test
  void aPatternAllowsItsHostOrEveryHostBelowItsDomain() {
    GitHosts hosts = new GitHosts(List.of("github.com", "*.git.corp.example"));

    assertThat(hosts.allows(RepositoryUrl.parse("https://GitHub.com/acme/infra.git").host())).isTrue();
    assertThat(hosts.allows(RepositoryUrl.parse("git@gitea.git.corp.example:team/fns.git").host())).isTrue();
    assertThat(hosts.allows(RepositoryUrl.parse("https://169.254.169.254/latest/meta-data").host())).isFalse();
    assertThat(hosts.allows(RepositoryUrl.parse("https://evilgithub.com/a/b").host())).isFalse();
    assertThat(hosts.allows(RepositoryUrl.parse("https://git.corp.example.evil/a/b").host())).isFalse();
    assertThat(hosts.allows(RepositoryUrl.parse("file:///etc/gitfn/repo.git").host())).isFalse();
    assertThat(new GitHosts(List.of("file")).allows(RepositoryUrl.parse("file:///srv/repo.git").host())).isTrue();
  }

  @Test
  void aPatternThatIsNotAHostNameIsRefusedNamingTheFlag() {
    assertThatThrownBy(() -> new GitHosts(List.of("*.example.com/path"))).hasMessageContaining("--allowed-git-host");
    assertThatThrownBy(() -> new GitHosts(List.of("*"))).hasMessageContaining("is not a host name or *.domain");
  }
}
