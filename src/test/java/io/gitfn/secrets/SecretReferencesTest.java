package io.gitfn.secrets;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.EnvVarBuilder;
import io.gitfn.api.function.Function;
import io.gitfn.api.function.TestFunction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Which Secrets a Function reads, and the keyed digest that rolls it when one of them changes. */
class SecretReferencesTest {

  private static final byte[] KEY = "the repository's identities".getBytes(StandardCharsets.UTF_8);

  private static Function reading(String envSecret, String mountedSecret) {
    Function fn = TestFunction.inline().secretMount(mountedSecret, "/etc/" + mountedSecret).build();
    List<EnvVar> env = new ArrayList<>(fn.getSpec().getEnv() == null ? List.of() : fn.getSpec().getEnv());
    env.add(new EnvVarBuilder().withName("PASSWORD").withNewValueFrom().withNewSecretKeyRef("password", envSecret,
        false).endValueFrom().build());
    fn.getSpec().setEnv(env);
    return fn;
  }

  @Test
  void aFunctionReadsTheSecretsItsEnvNamesAndThoseKymasSecretMountsMount() {
    assertThat(SecretReferences.of(reading("db", "tls"))).containsExactly("db", "tls");
    assertThat(SecretReferences.of(TestFunction.inline().env("PLAIN", "x").build())).isEmpty();
  }

  @Test
  void theDigestMovesWithTheContentOfTheSecretsTheFunctionReadsAndNoOther() {
    Function fn = reading("db", "tls");
    String before = SecretReferences.digest(fn, Map.of("db", "1", "tls", "2", "other", "3"), KEY).orElseThrow();

    assertThat(before).startsWith("hmac-sha256:").hasSize("hmac-sha256:".length() + 64);
    assertThat(SecretReferences.digest(fn, Map.of("db", "1", "tls", "2", "other", "changed"), KEY))
        .as("a Secret it does not read").contains(before);
    assertThat(SecretReferences.digest(fn, Map.of("db", "changed", "tls", "2"), KEY)).get().isNotEqualTo(before);
    assertThat(SecretReferences.digest(TestFunction.inline().build(), Map.of("db", "1"), KEY))
        .as("a Function that reads none of them").isEmpty();
  }

  @Test
  void theDigestIsKeyedSoThatItCannotBeRecomputedFromAGuessedValueWithoutTheRepositorysIdentities() {
    Function fn = reading("db", "tls");
    Map<String, String> digests = Map.of("db", "1", "tls", "2");

    assertThat(SecretReferences.digest(fn, digests, "another key".getBytes(StandardCharsets.UTF_8)))
        .get().isNotEqualTo(SecretReferences.digest(fn, digests, KEY).orElseThrow());
  }
}
