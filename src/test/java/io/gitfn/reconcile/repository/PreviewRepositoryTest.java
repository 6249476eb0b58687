package io.gitfn.reconcile.repository;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gitfn.api.Annotations;
import io.gitfn.api.Labels;
import io.gitfn.api.function.Function;
import io.gitfn.api.function.TestFunction;
import io.gitfn.api.repository.CommitStatus;
import io.gitfn.api.repository.Decryption;
import io.gitfn.api.repository.FunctionRepository;
import io.gitfn.api.repository.FunctionRepositorySpec;
import io.gitfn.api.repository.Preview;
import io.gitfn.api.repository.Previews;
import io.gitfn.api.repository.SecretRef;
import io.gitfn.api.repository.Verify;
import io.gitfn.preview.PreviewPlan;
import io.gitfn.reconcile.StepFailure;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The repository gitfn makes for a preview follows the pull request's head with the previewed repository's source,
 * credentials and reports, verifies that head, decrypts only when the spec says so, and belongs to the previewed
 * repository; the revision it applies goes whole into the preview's namespace, on the repository's images.
 */
class PreviewRepositoryTest {

  private static final String HEAD = "5f1c0e1b0d1f4c6a9e2b7d8c3a4f5e6d7c8b9a0f";

  @Test
  void aPreviewsRepositoryFollowsTheHeadWithTheRepositorysSourceAndReports() {
    FunctionRepository parent = parent();

    FunctionRepository child = PreviewsStep.child(parent, previews(false), run(), preview());

    assertThat(child.getMetadata().getName()).isEqualTo("infra-pr-42");
    assertThat(child.getMetadata().getNamespace()).isEqualTo("shop");
    assertThat(child.getMetadata().getLabels()).containsEntry(Labels.PREVIEW_OF, "shop.infra")
        .containsEntry(Labels.PULL_REQUEST, "42");
    assertThat(child.getMetadata().getOwnerReferences()).singleElement().satisfies(owner -> {
      assertThat(owner.getName()).isEqualTo("infra");
      assertThat(owner.getUid()).isEqualTo("uid-1");
      assertThat(owner.getController()).isTrue();
    });
    assertThat(child.getSpec().getRef().getCommit()).isEqualTo(HEAD);
    assertThat(child.getSpec().getRef().getBranch()).isNull();
    assertThat(child.getSpec().getUrl()).isEqualTo(parent.getSpec().getUrl());
    assertThat(child.getSpec().getSecretRef().getName()).isEqualTo("git");
    assertThat(child.getSpec().getCommitStatus().getSecretRef().getName()).isEqualTo("forge");
    assertThat(child.getSpec().getVerify().getMode()).as("a commit has no tag to verify").isEqualTo("HEAD");
    assertThat(child.getSpec().getVerify().getSecretRef().getName()).isEqualTo("keys");
    assertThat(child.getSpec().getAutoRollback()).isFalse();
    assertThat(child.getSpec().getDecryption()).as("no keys for code under review").isNull();
    assertThat(child.getSpec().getPreviews()).isNull();
    assertThat(child.getSpec().getPreviewOf().getNamespace()).isEqualTo("shop-pr-42");
    assertThat(child.getSpec().getPreviewOf().getHost()).isEqualTo("{function}-pr-{number}.preview.example.com");
  }

  @Test
  void aBitbucketCloudHeadOfTwelveDigitsIsFollowedByItsBranch() {
    PreviewPlan.Run bitbucket = new PreviewPlan.Run(42, HEAD.substring(0, 12), "feature/discount",
        TestRepository.NOW, TestRepository.NOW, true);

    FunctionRepository child = PreviewsStep.child(parent(), previews(false), bitbucket, preview());

    assertThat(child.getSpec().getRef().getCommit()).isNull();
    assertThat(child.getSpec().getRef().getBranch()).isEqualTo("feature/discount");
  }

  @Test
  void aPreviewDecryptsOnlyWhenItsSpecSaysSo() {
    FunctionRepository child = PreviewsStep.child(parent(), previews(true), run(), preview());

    assertThat(child.getSpec().getDecryption().getSecretRef().getName()).isEqualTo("age");
  }

  @Test
  void theRevisionsFunctionsGoIntoThePreviewsNamespaceOnTheRepositorysImages() throws Exception {
    List<Function> functions = new ArrayList<>(List.of(TestFunction.inline().named("a").inNamespace(null).build(),
        TestFunction.inline().named("b").inNamespace("shop").build()));

    PreviewRevision.place(TestRepository.REVISION, functions, "shop", "shop-pr-42");

    assertThat(functions).allSatisfy(fn -> {
      assertThat(fn.getMetadata().getNamespace()).isEqualTo("shop-pr-42");
      assertThat(fn.getMetadata().getAnnotations()).containsEntry(Annotations.IMAGE_NAMESPACE, "shop");
    });
  }

  @Test
  void aFunctionOfAnotherNamespaceRefusesThePreviewWhole() {
    List<Function> functions = List.of(TestFunction.inline().named("a").inNamespace("billing").build());

    assertThatThrownBy(() -> PreviewRevision.place(TestRepository.REVISION, functions, "shop", "shop-pr-42"))
        .isInstanceOfSatisfying(StepFailure.Stalled.class, stalled -> assertThat(stalled.getMessage())
            .contains("Function a names namespace billing, and a preview applies into its own namespace shop-pr-42"));
  }

  private static FunctionRepository parent() {
    FunctionRepository parent = new FunctionRepository();
    parent.getMetadata().setName("infra");
    parent.getMetadata().setNamespace("shop");
    parent.getMetadata().setUid("uid-1");
    parent.setSpec(new FunctionRepositorySpec());
    parent.getSpec().setUrl(TestRepository.URL);
    parent.getSpec().setSecretRef(new SecretRef("git"));
    CommitStatus status = new CommitStatus();
    status.setSecretRef(new SecretRef("forge"));
    parent.getSpec().setCommitStatus(status);
    parent.getSpec().setVerify(new Verify("Tag", new SecretRef("keys")));
    parent.getSpec().setDecryption(new Decryption("sops", new SecretRef("age")));
    return parent;
  }

  private static Previews previews(boolean decryption) {
    Previews previews = new Previews();
    previews.setEnabled(true);
    previews.setHost("{function}-pr-{number}.preview.example.com");
    previews.setDecryption(decryption);
    return previews;
  }

  private static PreviewPlan.Run run() {
    Instant at = TestRepository.NOW;
    return new PreviewPlan.Run(42, HEAD, "feature/discount", at, at, true);
  }

  private static Preview preview() {
    Preview preview = new Preview();
    preview.setNumber(42L);
    preview.setNamespace("shop-pr-42");
    preview.setRepository("infra-pr-42");
    return preview;
  }
}
