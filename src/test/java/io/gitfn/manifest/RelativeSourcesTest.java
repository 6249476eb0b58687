package io.gitfn.manifest;

import static org.assertj.core.api.Assertions.assertThat;

import io.gitfn.api.Annotations;
import io.gitfn.api.function.AuthType;
import io.gitfn.api.function.Function;
import io.gitfn.api.function.GitRepositorySource;
import io.gitfn.api.function.RepositoryAuth;
import io.gitfn.api.function.TestFunction;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** A revision's relative Git URLs leave its reader absolute, with the repository's Secret when they name none. */
class RelativeSourcesTest {

  private static final String INFRA = "https://git.example.com/org/infra.git";

  @Test
  void aRelativeUrlBecomesTheRepositorysAndReadsWithItsSecret() {
    Function orders = gitSourced("orders", "./", null);

    List<ManifestError> errors = RelativeSources.resolve(List.of(orders), RelativeSources.Base.of(INFRA,
        auth(AuthType.BASIC, "infra-git"), "team"));

    assertThat(errors).isEmpty();
    GitRepositorySource git = orders.getSpec().getSource().getGitRepository();
    assertThat(git.getUrl()).isEqualTo(INFRA);
    assertThat(git.getAuth().getType()).isEqualTo(AuthType.BASIC);
    assertThat(git.getAuth().getSecretName()).isEqualTo("infra-git");
  }

  @Test
  void aFunctionThatNamesItsOwnAuthKeepsIt() {
    Function orders = gitSourced("orders", "../orders.git", auth(AuthType.KEY, "orders-deploy-key"));

    RelativeSources.resolve(List.of(orders), RelativeSources.Base.of(INFRA, auth(AuthType.BASIC, "infra-git"),
        "team"));

    GitRepositorySource git = orders.getSpec().getSource().getGitRepository();
    assertThat(git.getUrl()).isEqualTo("https://git.example.com/org/orders.git");
    assertThat(git.getAuth().getSecretName()).isEqualTo("orders-deploy-key");
  }

  @Test
  void anAbsoluteUrlIsLeftAsItIs() {
    Function orders = gitSourced("orders", "https://github.com/o/r.git", null);

    RelativeSources.resolve(List.of(orders), RelativeSources.Base.of(INFRA, auth(AuthType.BASIC, "infra-git"),
        "team"));

    assertThat(orders.getSpec().getSource().getGitRepository().getUrl()).isEqualTo("https://github.com/o/r.git");
    assertThat(orders.getSpec().getSource().getGitRepository().getAuth()).isNull();
  }

  @Test
  void aFunctionInAnotherNamespaceCannotReadTheRepositorysSecret() {
    Function orders = gitSourced("orders", "./", null);
    orders.getMetadata().setNamespace("shop");

    List<ManifestError> errors = RelativeSources.resolve(List.of(orders), RelativeSources.Base.of(INFRA,
        auth(AuthType.BASIC, "infra-git"), "team"));

    assertThat(errors).extracting(ManifestError::toString).containsExactly("functions/orders.yaml:"
        + " spec.source.gitRepository.url: `./` is read with the repository's Secret infra-git, which is in namespace"
        + " team and not in shop, where this Function is; name a Secret of shop in spec.source.gitRepository.auth");
    assertThat(orders.getSpec().getSource().getGitRepository().getUrl()).isEqualTo("./");
  }

  @Test
  void aReaderWithoutARepositorySaysWhyAtTheFunctionsFileAndField() {
    Function orders = gitSourced("orders", "./", null);

    List<ManifestError> errors = RelativeSources.resolve(List.of(orders),
        RelativeSources.Base.none("folder /tmp/x is not in a Git repository"));

    assertThat(errors).extracting(ManifestError::toString).containsExactly("functions/orders.yaml:"
        + " spec.source.gitRepository.url: `./` cannot be resolved: folder /tmp/x is not in a Git repository");
  }

  @Test
  void aSiblingNeedsTheServerTheRepositoryCameFrom() {
    Function self = gitSourced("self", "./", null);
    Function sibling = gitSourced("sibling", "../orders.git", null);
    RelativeSources.Base clone = new RelativeSources.Base(Optional.of("file:///home/me/infra/.git"),
        Optional.empty(), "the repository at /home/me/infra has no origin remote", null, null);

    List<ManifestError> errors = RelativeSources.resolve(List.of(self, sibling), clone);

    assertThat(self.getSpec().getSource().getGitRepository().getUrl()).isEqualTo("file:///home/me/infra/.git");
    assertThat(errors).extracting(ManifestError::toString).containsExactly("functions/sibling.yaml:"
        + " spec.source.gitRepository.url: `../orders.git` cannot be resolved: the repository at /home/me/infra has"
        + " no origin remote");
  }

  @Test
  void climbingAboveTheHostIsAnErrorAtTheFunctionsFile() {
    Function far = gitSourced("far", "../../../far.git", null);

    List<ManifestError> errors = RelativeSources.resolve(List.of(far), RelativeSources.Base.of(INFRA, null, "team"));

    assertThat(errors).extracting(ManifestError::toString).containsExactly("functions/far.yaml:"
        + " spec.source.gitRepository.url: `../../../far.git` climbs above the host of " + INFRA + ": it has 2 path"
        + " segments for its 3 `../`");
  }

  @Test
  void aFunctionAppliedWithoutAnInfraRepositoryMayNotBeRelative() {
    assertThat(FunctionRules.check(gitSourced("orders", "./", null))).containsExactly("spec.source.gitRepository.url:"
        + " `./` is relative: a relative URL is only for Functions in an infra repository, where gitfn makes it"
        + " absolute; give the repository's absolute URL");
  }

  /** As an infra repository declares it: no namespace, read from {@code functions/<name>.yaml}. */
  private static Function gitSourced(String name, String url, RepositoryAuth auth) {
    TestFunction function = TestFunction.fromGit(url, "main", "/").named(name).inNamespace(null).uid(null)
        .metadataAnnotation(Annotations.SOURCE_PATH, "functions/" + name + ".yaml");
    if (auth != null) {
      function.gitAuth(auth.getType(), auth.getSecretName());
    }
    return function.build();
  }

  private static RepositoryAuth auth(AuthType type, String secret) {
    RepositoryAuth auth = new RepositoryAuth();
    auth.setType(type);
    auth.setSecretName(secret);
    return auth;
  }
}
