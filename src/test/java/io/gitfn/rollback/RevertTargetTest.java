package io.gitfn.rollback;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.gitfn.api.function.Function;
import io.gitfn.api.function.TestFunction;
import io.gitfn.api.repository.FunctionRepository;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Which repository, branch and paths a revert of a Function changes. */
class RevertTargetTest {

  private static final KubernetesSerialization YAML = new KubernetesSerialization();

  @Test
  void anInfraRepositoryFunctionIsRevertedInItsBranchAtItsSourcePath() {
    for (String sourcePath : List.of("infra/functions/hello.yaml", "infra/functions/orders", "infra/functions/py")) {
      RevertTarget target = RevertTarget.fromRepository(synced(sourcePath), repository("{branch: release/1.x}"));

      assertThat(target.url()).isEqualTo("https://git.example/infra.git");
      assertThat(target.branch()).isEqualTo("release/1.x");
      assertThat(target.paths()).containsExactly(sourcePath);
      assertThat(target.origin()).isEqualTo("FunctionRepository shop/infra");
    }
  }

  @Test
  void aRepositoryThatFollowsATagASemverRangeOrACommitHasNoBranchToPushTo() {
    assertThatThrownBy(() -> RevertTarget.fromRepository(synced("functions/hello.yaml"), repository("{tag: v1.2.0}")))
        .isInstanceOf(RollbackException.class)
        .hasMessage("function shop/hello comes from FunctionRepository shop/infra, which follows tag v1.2.0, not a"
            + " branch, so there is no branch to push a revert to; run its earlier image with --pin");
    assertThatThrownBy(() -> RevertTarget.fromRepository(synced("f.yaml"), repository("{semver: '>=1.0.0'}")))
        .hasMessageContaining("follows semver range >=1.0.0, not a branch");
    assertThatThrownBy(() -> RevertTarget.fromRepository(synced("f.yaml"), repository("{commit: " + "a".repeat(40) + "}")))
        .hasMessageContaining("follows commit aaaa");
  }

  @Test
  void aFunctionWithoutItsSourcePathCannotBeReverted() {
    Function fn = synced("x");
    fn.getMetadata().getAnnotations().clear();

    assertThatThrownBy(() -> RevertTarget.fromRepository(fn, repository("{branch: main}")))
        .hasMessageContaining("has no gitfn.io/source-path annotation");
  }

  @Test
  void aGitFunctionIsRevertedInItsBaseDirOnItsReferenceBranch() {
    RevertTarget target = RevertTarget.fromGitSource(git("refs/heads/main", "/orders/./src/"));

    assertThat(target.branch()).isEqualTo("main");
    assertThat(target.paths()).containsExactly("orders/src");
    assertThat(RevertTarget.fromGitSource(git("main", "/")).paths()).containsExactly(RevertTarget.WHOLE_REPOSITORY);
    assertThat(RevertTarget.fromGitSource(git("main", "/")).describePaths()).isEqualTo("the whole repository");
    assertThatThrownBy(() -> RevertTarget.fromGitSource(git("b".repeat(40), "orders")))
        .hasMessageContaining("builds reference \"bbbb").hasMessageContaining("--pin");
    assertThatThrownBy(() -> RevertTarget.fromGitSource(git("refs/tags/v1", "orders"))).hasMessageContaining("--pin");
    assertThatThrownBy(() -> RevertTarget.fromGitSource(git("main", "orders/../../etc")))
        .hasMessageContaining("leaves the repository");
  }

  @Test
  void targetsOverlapWhenOnePathHoldsTheOtherInTheSameRepositoryAndBranch() {
    RevertTarget folder = new RevertTarget("https://git.example/infra.git", "main", List.of("functions/orders"), "a");

    assertThat(folder.overlaps(new RevertTarget("https://git.example/infra", "main", List.of("functions/orders/x.yaml"), "b")))
        .isTrue();
    assertThat(folder.overlaps(new RevertTarget("https://git.example/infra.git/", "main", List.of("functions"), "b")))
        .isTrue();
    assertThat(folder.overlaps(new RevertTarget("https://git.example/infra.git", "main", List.of("."), "b"))).isTrue();
    assertThat(folder.overlaps(new RevertTarget("https://git.example/infra.git", "main", List.of("functions/orders2"), "b")))
        .isFalse();
    assertThat(folder.overlaps(new RevertTarget("https://git.example/infra.git", "dev", List.of("functions/orders"), "b")))
        .isFalse();
    assertThat(folder.overlaps(new RevertTarget("https://git.example/apps.git", "main", List.of("functions/orders"), "b")))
        .isFalse();
  }

  private static Function synced(String sourcePath) {
    return TestFunction.inline().named("hello").uid(null).code("x")
        .metadataLabel("gitfn.io/repository", "shop.infra").metadataAnnotation("gitfn.io/source-path", sourcePath)
        .build();
  }

  private static Function git(String reference, String baseDir) {
    return TestFunction.fromGit("https://git.example/apps.git", reference, baseDir).uid(null).build();
  }

  private static FunctionRepository repository(String ref) {
    return YAML.unmarshal("""
        apiVersion: gitfn.io/v1alpha1
        kind: FunctionRepository
        metadata: {name: infra, namespace: shop}
        spec: {url: "https://git.example/infra.git", ref: %s, path: infra}
        """.formatted(ref), FunctionRepository.class);
  }
}
