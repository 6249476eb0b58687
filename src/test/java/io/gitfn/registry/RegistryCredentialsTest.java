package io.gitfn.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/** Reading the builder's {@code kubernetes.io/dockerconfigjson} Secret for the registry lookup. */
class RegistryCredentialsTest {

  private static final String HOST = "registry.local:5000";

  private static String base64(String text) {
    return Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.UTF_8));
  }

  private static String config(String key, String entry) {
    return "{\"auths\":{\"" + key + "\":" + entry + "}}";
  }

  private static Optional<RegistryCredentials> read(String json, String host) {
    return RegistryCredentials.forHost(Map.of(RegistryCredentials.DOCKER_CONFIG_KEY, json), host);
  }

  @Test
  void authIsBase64OfUserColonPasswordAndThePasswordMayHoldColons() {
    assertThat(read(config(HOST, "{\"auth\":\"" + base64("pusher:pa:ss") + "\"}"), HOST))
        .contains(new RegistryCredentials("pusher", "pa:ss"));
  }

  @Test
  void usernameAndPasswordServeWhenThereIsNoAuth() {
    assertThat(read(config(HOST, "{\"username\":\"pusher\",\"password\":\"pw\"}"), HOST))
        .contains(new RegistryCredentials("pusher", "pw"));
  }

  @Test
  void authWinsOverUsernameAndPassword() {
    assertThat(read(config(HOST, "{\"auth\":\"" + base64("a:1") + "\",\"username\":\"b\",\"password\":\"2\"}"), HOST))
        .contains(new RegistryCredentials("a", "1"));
  }

  @ParameterizedTest(name = "key {0}")
  @ValueSource(strings = {"registry.local:5000", "https://registry.local:5000", "http://registry.local:5000/v2/",
      "REGISTRY.local:5000"})
  void theKeyMayCarryASchemeAPathOrUpperCase(String key) {
    assertThat(read(config(key, "{\"auth\":\"" + base64("u:p") + "\"}"), HOST)).isPresent();
  }

  @ParameterizedTest(name = "key {0}")
  @ValueSource(strings = {"registry.local", "registry.local:5001", "other.local:5000", "https://ghcr.io"})
  void anotherHostOrPortIsNotThisRegistry(String key) {
    assertThat(read(config(key, "{\"auth\":\"" + base64("u:p") + "\"}"), HOST)).isEmpty();
  }

  @Test
  void dockerHubsLegacyKeyServesItsApiHost() {
    String json = config("https://index.docker.io/v1/", "{\"auth\":\"" + base64("u:p") + "\"}");
    assertThat(read(json, "docker.io")).isPresent();
    assertThat(read(json, "registry-1.docker.io")).isPresent();
  }

  @Test
  void theEntryForTheHostIsTakenAmongOthers() {
    String json = "{\"auths\":{\"ghcr.io\":{\"auth\":\"" + base64("a:1") + "\"},"
        + "\"" + HOST + "\":{\"auth\":\"" + base64("b:2") + "\"}}}";
    assertThat(read(json, HOST)).contains(new RegistryCredentials("b", "2"));
  }

  @Test
  void noSecretNoConfigKeyOrNoAuthsMeansNoCredentials() {
    assertThat(RegistryCredentials.forHost(null, HOST)).isEmpty();
    assertThat(RegistryCredentials.forHost(Map.of(), HOST)).isEmpty();
    assertThat(RegistryCredentials.forHost(Map.of("config.json", "{}"), HOST)).isEmpty();
    assertThat(read("{}", HOST)).isEmpty();
  }

  @Test
  void malformedJsonIsNamedByPlaceNotByContent() {
    assertThatThrownBy(() -> read("{\"auths\": {\"" + HOST + "\": s3cret}}", HOST))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith(".dockerconfigjson is not valid JSON (line 1, column")
        .hasMessageNotContaining("s3cret");
    assertThatThrownBy(() -> read("[]", HOST)).hasMessage(".dockerconfigjson is not a JSON object");
  }

  @Test
  void anAuthThatIsNotBase64OfUserColonPasswordNamesTheEntryNotTheValue() {
    assertThatThrownBy(() -> read(config(HOST, "{\"auth\":\"s3cret!!\"}"), HOST))
        .hasMessage("auths[registry.local:5000].auth in .dockerconfigjson is not base64");
    assertThatThrownBy(() -> read(config(HOST, "{\"auth\":\"" + base64("s3cret") + "\"}"), HOST))
        .hasMessage("auths[registry.local:5000].auth in .dockerconfigjson is not base64 of username:password");
  }

  @Test
  void anEntryWithOnlyAnIdentityTokenIsRejectedWithWhy() {
    assertThatThrownBy(() -> read(config(HOST, "{\"identitytoken\":\"t\"}"), HOST))
        .hasMessageContaining("identity tokens are not supported");
  }

  @Test
  void toStringShowsNoPassword() {
    assertThat(new RegistryCredentials("pusher", "s3cret").toString()).contains("pusher").doesNotContain("s3cret");
  }

  @Test
  void basicAuthorizationIsBase64OfUserColonPassword() {
    assertThat(new RegistryCredentials("pusher", "pa:ss").basicAuthorization())
        .isEqualTo("Basic " + base64("pusher:pa:ss"));
  }
}
