package io.gitfn.workload;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscaler;
import io.gitfn.api.function.TestFunction;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class DesiredHpaTest {

  static Stream<Arguments> noAutoscaler() {
    return Stream.of(
        Arguments.of("no scaleConfig", (UnaryOperator<TestFunction>) f -> f),
        Arguments.of("min = max", (UnaryOperator<TestFunction>) f -> f.scale(3, 3)));
  }

  @ParameterizedTest(name = "{0}: no HPA")
  @MethodSource("noAutoscaler")
  void aFunctionWithoutRoomToScaleHasNoHpa(String rule, UnaryOperator<TestFunction> change) {
    assertThat(DesiredHpa.forFunction(change.apply(TestFunction.inline()).build(), WorkloadSettings.defaults()))
        .isEmpty();
  }

  @Test
  void minBelowMaxScalesTheFunctionOnCpu() {
    HorizontalPodAutoscaler hpa = DesiredHpa.forFunction(TestFunction.inline().scale(2, 7).build(),
        WorkloadSettings.defaults()).orElseThrow();

    assertThat(hpa.getApiVersion()).isEqualTo("autoscaling/v2");
    assertThat(hpa.getMetadata().getName()).isEqualTo("orders");
    assertThat(hpa.getMetadata().getNamespace()).isEqualTo("shop");
    assertThat(hpa.getMetadata().getOwnerReferences()).singleElement()
        .satisfies(owner -> assertThat(owner.getKind()).isEqualTo("Function"));
    assertThat(hpa.getSpec().getScaleTargetRef().getApiVersion()).isEqualTo("serverless.kyma-project.io/v1alpha2");
    assertThat(hpa.getSpec().getScaleTargetRef().getKind()).isEqualTo("Function");
    assertThat(hpa.getSpec().getScaleTargetRef().getName()).isEqualTo("orders");
    assertThat(hpa.getSpec().getMinReplicas()).isEqualTo(2);
    assertThat(hpa.getSpec().getMaxReplicas()).isEqualTo(7);
    assertThat(hpa.getSpec().getMetrics()).singleElement().satisfies(metric -> {
      assertThat(metric.getType()).isEqualTo("Resource");
      assertThat(metric.getResource().getName()).isEqualTo("cpu");
      assertThat(metric.getResource().getTarget().getType()).isEqualTo("Utilization");
      assertThat(metric.getResource().getTarget().getAverageUtilization()).isEqualTo(50);
    });
  }
}
