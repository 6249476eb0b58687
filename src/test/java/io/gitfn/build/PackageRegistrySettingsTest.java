package io.gitfn.build;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gitfn.api.function.FunctionRuntime;
import org.junit.jupiter.api.Test;

class PackageRegistrySettingsTest {

  private static final String NPMRC = """
      registry=https://npm.example.com/
      @acme:registry=https://npm.acme.example/
      //npm.example.com/:_authToken=npm_AAAAAAAAAAAAAAAAAAAA
      //npm.acme.example/:_auth=dXNlcjpwYXNz
      always-auth=true
      """;

  private static final String PIP_CONF = """
      [global]
      index-url = https://ci:secret-token@pypi.example.com/simple
      extra-index-url =
          https://deploy:other-token@mirror.example.com/simple
      client-cert = /etc/pip/client.pem
      """;

  @Test
  void aConfigThatDiffersOnlyInCredentialsHasTheSameDigest() {
    String otherToken = NPMRC.replace("npm_AAAAAAAAAAAAAAAAAAAA", "npm_BBBBBBBBBBBBBBBBBBBB")
        .replace("dXNlcjpwYXNz", "b3RoZXI6cGFzcw==");
    assertThat(PackageRegistrySettings.digest(FunctionRuntime.NODEJS22, otherToken))
        .isEqualTo(PackageRegistrySettings.digest(FunctionRuntime.NODEJS22, NPMRC));

    String otherPipUser = PIP_CONF.replace("ci:secret-token", "someone:else").replace("deploy:other-token", "x:y")
        .replace("/etc/pip/client.pem", "/elsewhere.pem");
    assertThat(PackageRegistrySettings.digest(FunctionRuntime.PYTHON312, otherPipUser))
        .isEqualTo(PackageRegistrySettings.digest(FunctionRuntime.PYTHON312, PIP_CONF));
  }

  @Test
  void anotherRegistryHasAnotherDigest() {
    assertThat(PackageRegistrySettings.digest(FunctionRuntime.NODEJS22,
        NPMRC.replace("registry=https://npm.example.com/", "registry=https://npm.other.example/")))
        .isNotEqualTo(PackageRegistrySettings.digest(FunctionRuntime.NODEJS22, NPMRC));
    assertThat(PackageRegistrySettings.digest(FunctionRuntime.PYTHON312,
        PIP_CONF.replace("mirror.example.com", "mirror.other.example")))
        .isNotEqualTo(PackageRegistrySettings.digest(FunctionRuntime.PYTHON312, PIP_CONF));
  }

  @Test
  void theOrderOfSettingsCommentsAndBlankLinesDoNotCount() {
    String reordered = """
        # our registries
        always-auth=true

        @acme:registry=https://npm.acme.example/
        registry=https://npm.example.com/
        """;
    assertThat(PackageRegistrySettings.digest(FunctionRuntime.NODEJS22, reordered))
        .isEqualTo(PackageRegistrySettings.digest(FunctionRuntime.NODEJS22, NPMRC));
  }

  @Test
  void noConfigHasTheEmptyDigest() {
    assertThat(PackageRegistrySettings.digest(FunctionRuntime.NODEJS22, null)).isEmpty();
    assertThat(PackageRegistrySettings.digest(FunctionRuntime.NODEJS22, " \n")).isEmpty();
    assertThat(PackageRegistrySettings.digest(FunctionRuntime.NODEJS22, NPMRC)).matches("[0-9a-f]{64}");
  }

  @Test
  void aConfigOverTheLimitIsRefusedBeforeItIsRead() {
    String huge = "registry=https://npm.example.com/\n".repeat(PackageRegistrySettings.MAX_BYTES / 30);
    assertThatThrownBy(() -> PackageRegistrySettings.digest(FunctionRuntime.NODEJS22, huge))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("the package-registry .npmrc is longer than 64 KiB");
  }
}
