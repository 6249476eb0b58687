package io.gitfn.reconcile;

import static io.gitfn.api.function.FunctionRuntime.NODEJS22;
import static io.gitfn.reconcile.Repositories.condition;
import static io.gitfn.reconcile.Repositories.create;
import static io.gitfn.reconcile.Repositories.gitSecret;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.gitfn.api.Annotations;
import io.gitfn.api.function.AuthType;
import io.gitfn.api.function.Function;
import io.gitfn.api.function.GitRepositorySource;
import io.gitfn.api.function.TestFunction;
import io.gitfn.testbed.KubeTestBed;
import io.gitfn.testbed.TestNamespace;
import io.gitfn.testbed.WithKubeApi;
import io.gitfn.testbed.git.BareRepository;
import io.gitfn.testbed.git.GitClient;
import io.gitfn.testbed.git.GitHttpServer;
import io.gitfn.testbed.git.GitServers;
import io.gitfn.testbed.git.WorkingCopy;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A Function whose Git URL is relative to the infra repository that declares it ({@code ./}), through the controller,
 * against a real API server and a real Git server: the FunctionRepository applies it with its own URL and Secret, so
 * the Function controller reads the repository's folder as for any Git-sourced Function; one whose {@code ../} climbs
 * above the server's host refuses the revision at its file.
 */
@WithKubeApi
@ExtendWith(GitServers.class)
class RelativeSourceUrlsIT {

  private static final Duration WAIT = Duration.ofSeconds(30);
  private static ControllerUnderTest running;

  @BeforeAll
  static void start(KubeTestBed bed) throws Exception {
    running = ControllerUnderTest.start(bed, "relative-urls", ControllerSettings.defaults());
  }

  @AfterAll
  static void stop() throws Exception {
    running.close();
  }

  @Test
  void aFunctionBuiltFromItsOwnInfraRepositoryIsAppliedWithTheRepositorysUrlAndSecret(KubernetesClient client,
      TestNamespace ns, GitHttpServer http, BareRepository repository, GitClient git) throws Exception {
    WorkingCopy copy = git.clone(http.url(repository.name()));
    String commit = copy.write("functions/orders.yaml", orders("./"))
        .write("sources/orders/handler.js", "module.exports = { main: () => 'orders' };\n")
        .write("sources/orders/package.json", "{}\n")
        .commit("orders, built from this repository");
    copy.push();
    gitSecret(client, ns.name(), http);
    create(client, ns.name(), "infra", http.url(repository.name()), Map.of());

    await().atMost(WAIT).untilAsserted(() -> {
      Function orders = client.resources(Function.class).inNamespace(ns.name()).withName("orders").get();
      assertThat(orders).isNotNull();
      GitRepositorySource source = orders.getSpec().getSource().getGitRepository();
      assertThat(source.getUrl()).isEqualTo(http.url(repository.name()));
      assertThat(source.getAuth().getType()).isEqualTo(AuthType.BASIC);
      assertThat(source.getAuth().getSecretName()).isEqualTo("git");
      // The Function controller read that URL with that Secret: it resolved the reference to the pushed commit.
      assertThat(orders.getStatus()).isNotNull();
      assertThat(orders.getStatus().getCommit()).isEqualTo(commit);
    });
  }

  @Test
  void aRelativeUrlThatClimbsAboveTheHostRefusesTheRevisionAtItsFile(KubernetesClient client, TestNamespace ns,
      GitHttpServer http, BareRepository repository, GitClient git) throws Exception {
    WorkingCopy copy = git.clone(http.url(repository.name()));
    String commit = copy.write("functions/orders.yaml", orders("../../../../../../../orders.git"))
        .commit("orders from too far up");
    copy.push();
    gitSecret(client, ns.name(), http);
    create(client, ns.name(), "infra", http.url(repository.name()), Map.of());

    await().atMost(WAIT).untilAsserted(() -> assertThat(condition(client, ns.name(), "infra", "Ready"))
        .hasValueSatisfying(c -> {
          assertThat(c.getStatus()).isEqualTo("False");
          assertThat(c.getReason()).isEqualTo("InvalidRevision");
          assertThat(c.getMessage()).contains(commit).contains("functions/orders.yaml: spec.source.gitRepository.url:"
              + " `../../../../../../../orders.git` climbs above the host of " + http.url(repository.name()));
        }));
    assertThat(Repositories.functionNames(client, ns.name())).as("nothing of the revision").isEmpty();
  }

  /** Buildless, so that nothing waits for a registry; built from {@code sources/orders} of {@code url} at main. */
  private static String orders(String url) {
    return TestFunction.fromGit(url, "main", "sources/orders").named("orders").inNamespace(null).uid(null)
        .runtime(NODEJS22).metadataAnnotation(Annotations.BUILD_MODE, "buildless").toYaml();
  }
}
