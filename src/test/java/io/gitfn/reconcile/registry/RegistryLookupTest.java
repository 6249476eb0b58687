package io.gitfn.reconcile.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.gitfn.reconcile.registry.FakeRegistry.Auth;
import io.gitfn.reconcile.registry.FakeRegistry.Seen;
import io.gitfn.reconcile.registry.RegistryLookup.Result.Answer;
import io.gitfn.reconcile.registry.RegistryLookup.Result;
import io.gitfn.registry.RegistryCredentials;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The lookup against a fake registry: what it asks, how it authenticates, and that every failure is UNKNOWN. */
class RegistryLookupTest {

  private static final String TAG = "0123abcd0123abcd0123abcd0123abcd";
  private static final String MANIFEST_PATH = "/v2/shop-hello/manifests/" + TAG;

  private FakeRegistry registry;

  @BeforeEach
  void startRegistry() throws Exception {
    registry = FakeRegistry.start();
  }

  @AfterEach
  void stopRegistry() throws Exception {
    registry.close();
  }

  private String image() {
    return registry.host() + "/shop-hello:" + TAG;
  }

  private RegistryLookup lookup() {
    return new RegistryLookup(RegistryLookupSettings.enabled(Set.of(registry.host())));
  }

  /** A dockerconfigjson Secret's data, decoded, with credentials for the fake registry. */
  private Map<String, String> secret(String user, String password) {
    String auth = Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    return Map.of(RegistryCredentials.DOCKER_CONFIG_KEY,
        "{\"auths\":{\"" + registry.host() + "\":{\"auth\":\"" + auth + "\"}}}");
  }

  private Map<String, String> rightSecret() {
    return secret(FakeRegistry.USER, FakeRegistry.PASSWORD);
  }

  @Test
  void anImageTheRegistryHoldsExists() {
    registry.holding("shop-hello", TAG);

    Result result = lookup().check(image(), Map.of());

    assertThat(result.answer()).isEqualTo(Answer.EXISTS);
    assertThat(result.exists()).isTrue();
    assertThat(result.message()).isEqualTo("registry " + registry.host() + " has " + image());
    assertThat(registry.requests()).containsExactly(new Seen("HEAD", MANIFEST_PATH, null,
        "application/vnd.oci.image.index.v1+json, application/vnd.oci.image.manifest.v1+json, "
            + "application/vnd.docker.distribution.manifest.list.v2+json, "
            + "application/vnd.docker.distribution.manifest.v2+json",
        null));
  }

  @Test
  void anImageTheRegistryLacksIsAbsent() {
    registry.holding("shop-hello", "another-tag");

    Result result = lookup().check(image(), Map.of());

    assertThat(result.answer()).isEqualTo(Answer.ABSENT);
    assertThat(result.exists()).isFalse();
    assertThat(result.message()).contains("does not have " + image());
  }

  @Test
  void aRepositoryUnderARegistryPathIsAskedForByItsWholePath() {
    registry.holding("acme/shop-hello", TAG).requiring(Auth.BEARER);

    Result result = lookup().check(registry.host() + "/acme/shop-hello:" + TAG, rightSecret());

    assertThat(result.answer()).isEqualTo(Answer.EXISTS);
    assertThat(registry.requests()).extracting(Seen::path)
        .containsExactly("/v2/acme/shop-hello/manifests/" + TAG, "/token", "/v2/acme/shop-hello/manifests/" + TAG);
  }

  @Test
  void aBearerChallengeIsAnsweredWithAPullTokenFromTheRealmThenOneRetry() {
    registry.holding("shop-hello", TAG).requiring(Auth.BEARER);

    Result result = lookup().check(image(), rightSecret());

    assertThat(result.answer()).isEqualTo(Answer.EXISTS);
    assertThat(registry.requests()).containsExactly(
        new Seen("HEAD", MANIFEST_PATH, null, RegistryLookup.MANIFEST_TYPES, null),
        new Seen("GET", "/token", "service=fake-registry&scope=repository%3Ashop-hello%3Apull", "application/json",
            FakeRegistry.basic(FakeRegistry.USER, FakeRegistry.PASSWORD)),
        new Seen("HEAD", MANIFEST_PATH, null, RegistryLookup.MANIFEST_TYPES,
            "Bearer " + FakeRegistry.tokenFor("shop-hello")));
  }

  @Test
  void aTagTheRegistryLacksIsAbsentBehindABearerChallengeToo() {
    registry.requiring(Auth.BEARER);

    assertThat(lookup().check(image(), rightSecret()).answer()).isEqualTo(Answer.ABSENT);
  }

  @Test
  void aTokenThatCannotGoInAHeaderIsUnknownAndNotSent() {
    registry.holding("shop-hello", TAG).requiring(Auth.BEARER).answeringToken("line\nbreak");

    Result result = lookup().check(image(), rightSecret());

    assertThat(result.answer()).isEqualTo(Answer.UNKNOWN);
    assertThat(result.message()).endsWith("answered a token that cannot go in an Authorization header")
        .doesNotContain("line");
    assertThat(registry.requests()).hasSize(2);
  }

  @Test
  void theRealmsAccessTokenIsTakenWhenItSendsNoToken() {
    registry.holding("shop-hello", TAG).requiring(Auth.BEARER).answeringAccessToken();

    assertThat(lookup().check(image(), rightSecret()).answer()).isEqualTo(Answer.EXISTS);
  }

  @Test
  void aRealmThatRefusesTheCredentialsIsUnknownAndTheMessageShowsNoSecret() {
    registry.holding("shop-hello", TAG).requiring(Auth.BEARER);

    Result result = lookup().check(image(), secret(FakeRegistry.USER, "wrong-password"));

    assertThat(result.answer()).isEqualTo(Answer.UNKNOWN);
    assertThat(result.message())
        .isEqualTo("the token realm http://" + registry.host() + "/token of " + registry.host()
            + " answered 401 for repository:shop-hello:pull")
        .doesNotContain("wrong-password");
    assertThat(registry.requests()).hasSize(2);
  }

  @Test
  void aBearerChallengeWithoutCredentialsAsksTheRealmWithoutThem() {
    registry.holding("shop-hello", TAG).requiring(Auth.BEARER);

    Result result = lookup().check(image(), Map.of());

    assertThat(result.answer()).isEqualTo(Answer.UNKNOWN);
    assertThat(result.message()).endsWith("answered 401 for repository:shop-hello:pull without credentials");
    assertThat(registry.requests().get(1).authorization()).isNull();
  }

  @Test
  void aPlainHttpRealmNotListedAsInsecureIsNotAskedAndGetsNoCredentials() {
    registry.holding("shop-hello", TAG).requiring(Auth.BEARER).namingRealmHost("localhost");

    Result result = lookup().check(image(), rightSecret());

    assertThat(result.answer()).isEqualTo(Answer.UNKNOWN);
    assertThat(result.message()).contains("is not HTTPS; list localhost:");
    assertThat(registry.requests()).extracting(Seen::path).containsExactly(MANIFEST_PATH);
  }

  @Test
  void aBasicChallengeIsAnsweredWithTheSecretsCredentials() {
    registry.holding("shop-hello", TAG).requiring(Auth.BASIC);

    Result result = lookup().check(image(), rightSecret());

    assertThat(result.answer()).isEqualTo(Answer.EXISTS);
    assertThat(registry.requests()).extracting(Seen::method, Seen::authorization).containsExactly(
        tuple("HEAD", null),
        tuple("HEAD", FakeRegistry.basic(FakeRegistry.USER, FakeRegistry.PASSWORD)));
  }

  @Test
  void aBasicChallengeRefusingTheCredentialsIsUnknownAfterOneRetry() {
    registry.holding("shop-hello", TAG).requiring(Auth.BASIC);

    Result result = lookup().check(image(), secret("intruder", "guess"));

    assertThat(result.answer()).isEqualTo(Answer.UNKNOWN);
    assertThat(result.message()).isEqualTo(registry.host() + " refused to show " + image() + " with basic auth (401)");
    assertThat(registry.requests()).hasSize(2);
  }

  @Test
  void aBasicChallengeWithoutCredentialsIsUnknown() {
    registry.requiring(Auth.BASIC);

    Result result = lookup().check(image(), null);

    assertThat(result.answer()).isEqualTo(Answer.UNKNOWN);
    assertThat(result.message()).isEqualTo(
        registry.host() + " asks for basic auth, and the registry Secret has no credentials for it");
    assertThat(registry.requests()).hasSize(1);
  }

  @Test
  void aServerErrorIsUnknown() {
    registry.holding("shop-hello", TAG).failingWith(500);

    Result result = lookup().check(image(), Map.of());

    assertThat(result.answer()).isEqualTo(Answer.UNKNOWN);
    assertThat(result.message()).isEqualTo(registry.host() + " answered 500 when asked for " + image());
  }

  @Test
  void aRegistryThatDoesNotAnswerInTimeIsUnknownAfterTheTimeout() {
    registry.holding("shop-hello", TAG).answeringSlowly();
    RegistryLookup lookup = new RegistryLookup(
        RegistryLookupSettings.enabled(Set.of(registry.host())).withTimeout(Duration.ofMillis(300)));

    long started = System.nanoTime();
    Result result = lookup.check(image(), Map.of());

    assertThat(result.answer()).isEqualTo(Answer.UNKNOWN);
    assertThat(result.message()).isEqualTo(registry.host() + " did not answer within 300 ms");
    assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(5));
  }

  @Test
  void anUnreachableRegistryIsUnknown() throws Exception {
    String closed;
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      closed = "127.0.0.1:" + socket.getLocalPort();
    }
    RegistryLookup lookup = new RegistryLookup(RegistryLookupSettings.enabled(Set.of(closed)));

    Result result = lookup.check(closed + "/shop-hello:" + TAG, Map.of());

    assertThat(result.answer()).isEqualTo(Answer.UNKNOWN);
    assertThat(result.message()).isEqualTo("cannot reach " + closed + ": connection refused");
  }

  @Test
  void aRegistryNotListedAsInsecureIsAskedOverHttps() {
    registry.holding("shop-hello", TAG).requiring(Auth.BASIC);
    RegistryLookup lookup = new RegistryLookup(RegistryLookupSettings.enabled(Set.of()));

    Result result = lookup.check(image(), rightSecret());

    // The TLS handshake fails against the plain-HTTP fake, before any request, let alone credentials, is sent.
    assertThat(result.answer()).isEqualTo(Answer.UNKNOWN);
    assertThat(result.message()).startsWith("cannot reach " + registry.host() + ": ")
        .endsWith("; if it serves plain HTTP, list it as an insecure registry");
    assertThat(registry.requests()).isEmpty();
  }

  @Test
  void theLookupIsOffByDefaultAndAsksNothing() {
    registry.holding("shop-hello", TAG);

    Result result = new RegistryLookup(RegistryLookupSettings.disabled()).check(image(), Map.of());

    assertThat(result).isEqualTo(new Result(Answer.UNKNOWN, "the registry lookup is off"));
    assertThat(registry.requests()).isEmpty();
  }

  @Test
  void aMalformedImageOrSecretIsUnknownNotAnException() {
    assertThat(lookup().check("shop-hello:" + TAG, Map.of()).message()).contains("names no registry host");
    assertThat(lookup().check(image(), Map.of(RegistryCredentials.DOCKER_CONFIG_KEY, "{not json")).message())
        .startsWith(".dockerconfigjson is not valid JSON");
    assertThat(registry.requests()).isEmpty();
  }
}
