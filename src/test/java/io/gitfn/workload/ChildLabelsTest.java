package io.gitfn.workload;

import static org.assertj.core.api.Assertions.assertThat;

import io.gitfn.api.Labels;
import io.gitfn.api.function.Function;
import io.gitfn.api.function.TestFunction;
import org.junit.jupiter.api.Test;

class ChildLabelsTest {

  @Test
  void internalLabelsNameTheFunctionTheManagerAndTheUid() {
    Function fn = TestFunction.inline().build();

    assertThat(ChildLabels.internal(fn)).containsExactly(
        java.util.Map.entry("serverless.kyma-project.io/function-name", "orders"),
        java.util.Map.entry("serverless.kyma-project.io/managed-by", "function-controller"),
        java.util.Map.entry("serverless.kyma-project.io/uuid", fn.getMetadata().getUid()));
  }

  @Test
  void aFunctionWithoutUidYetHasNoUidLabel() {
    assertThat(ChildLabels.internal(TestFunction.inline().uid(null).build())).doesNotContainKey(Labels.UUID);
  }

  @Test
  void internalLabelsWinOverTheFunctionsOwn() {
    Function fn = TestFunction.inline().metadataLabel("team", "a").metadataLabel(Labels.FUNCTION_NAME, "x").build();

    assertThat(ChildLabels.ofFunction(fn)).containsEntry("team", "a").containsEntry(Labels.FUNCTION_NAME, "orders");
  }

  @Test
  void podLabelsAreSpecLabelsTheAppNameAndTheSelectorWhichWins() {
    Function fn = TestFunction.inline().label("team", "a").label(Labels.APP_NAME, "mine").build();

    assertThat(ChildLabels.ofPod(fn)).containsEntry("team", "a").containsEntry(Labels.APP_NAME, "orders")
        .containsAllEntriesOf(ChildLabels.selector(fn));
    assertThat(ChildLabels.selector(fn)).containsEntry(Labels.RESOURCE, "deployment")
        .containsAllEntriesOf(ChildLabels.internal(fn));
  }
}
