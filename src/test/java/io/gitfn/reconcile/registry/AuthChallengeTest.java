package io.gitfn.reconcile.registry;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class AuthChallengeTest {

  @Test
  void dockerHubsBearerChallengeGivesRealmServiceAndScope() {
    AuthChallenge challenge = AuthChallenge.parse("Bearer realm=\"https://auth.docker.io/token\","
        + "service=\"registry.docker.io\",scope=\"repository:library/node:pull\"").orElseThrow();

    assertThat(challenge.is("bearer")).isTrue();
    assertThat(challenge.parameters()).isEqualTo(Map.of("realm", "https://auth.docker.io/token",
        "service", "registry.docker.io", "scope", "repository:library/node:pull"));
  }

  @Test
  void aQuotedValueKeepsItsCommasAndEscapes() {
    AuthChallenge challenge = AuthChallenge.parse(
        "Bearer realm=\"https://a/token\", scope=\"repository:a:pull,push\", error=\"say \\\"hi\\\"\"").orElseThrow();

    assertThat(challenge.parameter("scope")).contains("repository:a:pull,push");
    assertThat(challenge.parameter("error")).contains("say \"hi\"");
  }

  @Test
  void schemesAndNamesAreCaseInsensitiveAndValuesMayGoUnquoted() {
    AuthChallenge challenge = AuthChallenge.parse("BASIC Realm=registry , charset=UTF-8").orElseThrow();

    assertThat(challenge.is("basic")).isTrue();
    assertThat(challenge.parameter("REALM")).contains("registry");
    assertThat(challenge.parameter("charset")).contains("UTF-8");
  }

  @Test
  void aSchemeAloneHasNoParametersAndABlankHeaderNoChallenge() {
    assertThat(AuthChallenge.parse("Basic")).contains(new AuthChallenge("basic", Map.of()));
    assertThat(AuthChallenge.parse("  ")).isEmpty();
    assertThat(AuthChallenge.parse(null)).isEmpty();
  }
}
