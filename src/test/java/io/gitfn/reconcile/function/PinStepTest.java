package io.gitfn.reconcile.function;

import static io.gitfn.reconcile.function.Passes.entry;
import static org.assertj.core.api.Assertions.assertThat;

import io.gitfn.api.Annotations;
import io.gitfn.api.function.Function;
import io.gitfn.api.function.TestFunction;
import io.gitfn.build.BuildSettings;
import io.gitfn.build.ContentKey;
import io.gitfn.reconcile.Result;
import org.junit.jupiter.api.Test;

/**
 * A Function pinned with {@code gitfn.io/pinned-revision} runs the image its history has for that revision; a pin
 * to a revision with no known-good image says so in ConfigurationReady and changes nothing. Running a known pinned
 * image looks for its buildless source ConfigMap first, which is GitFunctionIT's and BuildlessIT's.
 */
class PinStepTest {

  private static final String PINNED = "main@sha1:" + "c".repeat(40);
  private static final ContentKey KEY = new ContentKey("c".repeat(64));

  private final PinStep step = new PinStep(new BuildlessSources(null, BuildSettings.defaults()));

  @Test
  void anUnpinnedFunctionFollowsItsSpecAndTheStatusShowsNoPin() {
    Function fn = TestFunction.inline().build();
    FunctionState state = Passes.of(fn);
    state.status().setPinnedRevision(PINNED); // unpinned since the last pass

    Result result = step.run(state);

    assertThat(result).isEqualTo(Result.next());
    assertThat(state.pin()).isNull();
    assertThat(state.status().getPinnedRevision()).isNull();
    assertThat(state.desired()).isEmpty();
  }

  @Test
  void aBlankPinIsNoPin() {
    FunctionState state = Passes.of(TestFunction.inline().metadataAnnotation(Annotations.PINNED_REVISION, " ")
        .build());

    step.run(state);

    assertThat(state.pin()).isNull();
  }

  @Test
  void aPinToARevisionWithoutABuiltImageIsReportedAndReleasesNothing() {
    Function fn = Passes.withHistory(TestFunction.inline().metadataAnnotation(Annotations.PINNED_REVISION, PINNED)
        .build(), entry(KEY, "registry.local:5000/shop/orders:c", PINNED, "Failed", null));
    FunctionState state = Passes.of(fn);

    Result result = step.run(state);

    assertThat(result).isEqualTo(Result.next());
    assertThat(state.pin()).as("the steps after it still leave the spec alone").isEqualTo(PINNED);
    assertThat(state.status().getPinnedRevision()).isEqualTo(PINNED);
    assertThat(state.draft().condition("ConfigurationReady")).hasValueSatisfying(c -> {
      assertThat(c.getStatus()).isEqualTo("False");
      assertThat(c.getReason()).isEqualTo("PinnedRevisionUnknown");
      assertThat(c.getMessage()).isEqualTo("pinned to " + PINNED + ", which has no built image in status.history;"
          + " unpin with `gitfn rollback function orders --unpin`");
    });
    assertThat(state.desired()).as("what runs keeps running").isEmpty();
  }
}
