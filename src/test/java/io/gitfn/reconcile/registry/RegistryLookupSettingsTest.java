package io.gitfn.reconcile.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Set;
import org.junit.jupiter.api.Test;

class RegistryLookupSettingsTest {

  @Test
  void theLookupIsOffByDefaultWithAFiveSecondTimeout() {
    assertThat(RegistryLookupSettings.disabled())
        .isEqualTo(new RegistryLookupSettings(false, Set.of(), Duration.ofSeconds(5)));
  }

  @Test
  void insecureRegistriesAreHostsAndPortsInAnyCase() {
    RegistryLookupSettings settings = RegistryLookupSettings.enabled(Set.of(" Registry.Local:5000 "));

    assertThat(settings.insecure("registry.local:5000")).isTrue();
    assertThat(settings.insecure("REGISTRY.LOCAL:5000")).isTrue();
    assertThat(settings.insecure("registry.local")).isFalse();
  }

  @Test
  void anInsecureRegistryWithASchemeOrPathIsRejected() {
    assertThatThrownBy(() -> RegistryLookupSettings.enabled(Set.of("http://registry.local:5000")))
        .hasMessage("insecure registry `http://registry.local:5000` is not a host[:port] such as registry.local:5000");
    assertThatThrownBy(() -> RegistryLookupSettings.enabled(Set.of("")))
        .hasMessageContaining("is not a host[:port]");
  }

  @Test
  void theTimeoutMustBePositive() {
    assertThatThrownBy(() -> RegistryLookupSettings.disabled().withTimeout(Duration.ZERO))
        .hasMessage("the registry lookup's timeout must be positive, was PT0S");
  }
}
