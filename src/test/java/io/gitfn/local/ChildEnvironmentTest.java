package io.gitfn.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** What gitfn up's children see of the user's environment, and how long an installer may take. */
class ChildEnvironmentTest {

  private static Map<String, String> users() {
    Map<String, String> env = new HashMap<>(Map.of("PATH", "/usr/bin", "HOME", "/home/me", "LANG", "C.UTF-8",
        "AWS_SECRET_ACCESS_KEY", "s3cret", "GITHUB_TOKEN", "ghp_x", "SSH_AUTH_SOCK", "/tmp/agent.sock",
        "HTTPS_PROXY", "http://proxy:3128", "npm_config_registry", "https://npm.corp", "PIP_INDEX_URL",
        "https://pypi.corp/simple"));
    env.put("https_proxy", "http://proxy:3128");
    return env;
  }

  @Test
  void aFunctionSeesWhatAProgramNeedsAndNoCredentials() {
    Map<String, String> env = users();
    ChildEnvironment.forFunction(env);
    assertThat(env).containsOnlyKeys("PATH", "HOME", "LANG");
  }

  @Test
  void anInstallerAlsoKeepsProxiesAndPackageRegistries() {
    Map<String, String> env = users();
    ChildEnvironment.forInstaller(env);
    assertThat(env).containsOnlyKeys("PATH", "HOME", "LANG", "HTTPS_PROXY", "https_proxy", "npm_config_registry",
        "PIP_INDEX_URL");
  }

  @Test
  @Timeout(60) // guards the suite against the hang this is about; it measures nothing
  void anInstallerThatHangsIsStoppedAtItsLimit(@TempDir Path dir) {
    assertThatThrownBy(() -> Commands.run(List.of("bash", "-c", "echo resolving; sleep 600"), dir,
        Duration.ofSeconds(1)))
        .isInstanceOf(LocalException.class).hasMessageContaining("ran longer than 1 s and was stopped")
        .hasMessageContaining("resolving");
  }

  @Test
  void anInstallerStartsWithOnlyThoseVariables(@TempDir Path dir) {
    // The names the installer sees, on one line of the failure message (bash adds PWD, SHLVL and _ itself).
    assertThatThrownBy(() -> Commands.run(List.of("bash", "-c", "env | cut -d= -f1 | sort | tr '\\n' ' '; exit 3"),
        dir))
        .isInstanceOfSatisfying(LocalException.class, e -> {
          String names = e.getMessage().lines().reduce((a, b) -> b).orElseThrow().strip();
          assertThat(names.split(" ")).allSatisfy(name -> assertThat(name).matches(
              "PATH|HOME|USER|LOGNAME|LANG|LC_ALL|LC_CTYPE|TZ|TMPDIR|TERM|PWD|SHLVL|_|(?i)(https?|no)_proxy"
                  + "|(?i)npm_config_.*|PIP_.*"));
          assertThat(names).as("the JVM's own environment is not passed on").doesNotContain("JAVA_HOME");
        });
  }
}
