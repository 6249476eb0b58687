package io.gitfn.workload;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Service;
import io.gitfn.api.function.Function;
import io.gitfn.api.function.TestFunction;
import org.junit.jupiter.api.Test;

class DesiredServiceTest {

  private static final Function FN = TestFunction.inline().metadataLabel("team", "a").build();
  private static final Service SERVICE = DesiredService.forFunction(FN);

  @Test
  void theServiceIsNamedAfterTheFunctionAndOwnedByIt() {
    assertThat(SERVICE.getMetadata().getName()).isEqualTo("orders");
    assertThat(SERVICE.getMetadata().getNamespace()).isEqualTo("shop");
    assertThat(SERVICE.getMetadata().getLabels()).isEqualTo(ChildLabels.ofFunction(FN));
    assertThat(SERVICE.getMetadata().getOwnerReferences()).singleElement()
        .satisfies(owner -> assertThat(owner.getName()).isEqualTo("orders"));
  }

  @Test
  void port80NamedHttpForwardsTo8080() {
    assertThat(SERVICE.getSpec().getPorts()).singleElement().satisfies(port -> {
      assertThat(port.getName()).isEqualTo("http");
      assertThat(port.getPort()).isEqualTo(80);
      assertThat(port.getTargetPort()).isEqualTo(new IntOrString(8080));
      assertThat(port.getProtocol()).isEqualTo("TCP");
    });
  }

  @Test
  void itSelectsTheDeploymentsPods() {
    assertThat(SERVICE.getSpec().getSelector())
        .isEqualTo(DesiredDeployment.forFunction(FN, "img", WorkloadSettings.defaults())
            .getSpec().getSelector().getMatchLabels());
  }

  @Test
  void prometheusScrapesTheRuntimesMetrics() {
    assertThat(SERVICE.getMetadata().getAnnotations())
        .containsEntry("prometheus.io/scrape", "true")
        .containsEntry("prometheus.io/port", "8080")
        .containsEntry("prometheus.io/path", "/metrics");
  }
}
