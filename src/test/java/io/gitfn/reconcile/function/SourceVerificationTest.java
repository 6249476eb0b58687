package io.gitfn.reconcile.function;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gitfn.api.Annotations;
import io.gitfn.api.VerificationStatus;
import io.gitfn.api.function.Function;
import io.gitfn.api.function.TestFunction;
import io.gitfn.reconcile.StepFailure;
import io.gitfn.source.verify.VerifyMode;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * What a Git-sourced Function's {@code gitfn.io/verify-mode} and {@code gitfn.io/verify-secret} ask. Verifying
 * revisions with them, against a real Git server and signatures made by git, is GitFunctionVerifyIT's.
 */
class SourceVerificationTest {

  @Test
  void aFunctionWithNeitherAnnotationAsksForNothing() throws Exception {
    assertThat(SourceVerification.asked(TestFunction.fromGit("/orders").build())).isEmpty();
  }

  @Test
  void theSecretAloneAsksForASignedHead() throws Exception {
    assertThat(SourceVerification.asked(annotated(null, "trusted-keys")))
        .contains(new SourceVerification.Asked(VerifyMode.HEAD, "trusted-keys"));
  }

  @Test
  void bothAnnotationsAskForTheirModeWithThatSecret() throws Exception {
    assertThat(SourceVerification.asked(annotated(" Range ", "trusted-keys")))
        .contains(new SourceVerification.Asked(VerifyMode.Range, "trusted-keys"));
  }

  @Test
  void aModeWithoutASecretOrAnEmptySecretIsAnInvalidSpecNamingTheAnnotations() {
    assertInvalid(annotated("HEAD", null), "annotation gitfn.io/verify-mode asks for signed revisions, but"
        + " annotation gitfn.io/verify-secret names no Secret of keys to verify revisions with");
    assertInvalid(annotated(null, " "), "annotation gitfn.io/verify-secret names no Secret of keys");
  }

  @Test
  void anUnknownModeIsAnInvalidSpecNamingTheModesThereAre() {
    assertInvalid(annotated("head", "trusted-keys"),
        "annotation gitfn.io/verify-mode: `head` is not HEAD, Tag, TagAndHEAD or Range");
    assertInvalid(annotated("", "trusted-keys"), "annotation gitfn.io/verify-mode: `` is not");
  }

  @Test
  void withoutTheAnnotationsWhatAnEarlierVerificationRecordedGoes() throws Exception {
    FunctionState state = Passes.of(TestFunction.fromGit("/orders").build());
    state.status().setVerification(new VerificationStatus());

    new SourceVerification(null, Duration.ofMinutes(1)).verify(state, Optional.empty(), null, null);

    assertThat(state.status().getVerification()).isNull();
  }

  private static Function annotated(String mode, String secret) {
    TestFunction fn = TestFunction.fromGit("/orders");
    if (mode != null) {
      fn.metadataAnnotation(Annotations.VERIFY_MODE, mode);
    }
    if (secret != null) {
      fn.metadataAnnotation(Annotations.VERIFY_SECRET, secret);
    }
    return fn.build();
  }

  private static void assertInvalid(Function fn, String message) {
    assertThatThrownBy(() -> SourceVerification.asked(fn)).isInstanceOfSatisfying(StepFailure.Stalled.class,
        stalled -> {
          assertThat(stalled.reason()).isEqualTo("InvalidFunctionSpec");
          assertThat(stalled.getMessage()).startsWith(message);
          assertThat(stalled.lookAgain()).as("an annotation change starts the next pass").isEmpty();
        });
  }
}
