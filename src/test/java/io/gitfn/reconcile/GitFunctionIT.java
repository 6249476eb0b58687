package io.gitfn.reconcile;

import static io.gitfn.reconcile.GitFunctions.V1;
import static io.gitfn.reconcile.GitFunctions.V2;
import static io.gitfn.reconcile.GitFunctions.WAIT;
import static io.gitfn.reconcile.GitFunctions.awaitReady;
import static io.gitfn.reconcile.GitFunctions.condition;
import static io.gitfn.reconcile.GitFunctions.deployment;
import static io.gitfn.reconcile.GitFunctions.get;
import static io.gitfn.reconcile.GitFunctions.hello;
import static io.gitfn.reconcile.GitFunctions.image;
import static io.gitfn.reconcile.Repositories.gitSecret;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.gitfn.api.Annotations;
import io.gitfn.api.function.Function;
import io.gitfn.testbed.KubeTestBed;
import io.gitfn.testbed.TestNamespace;
import io.gitfn.testbed.WithKubeCluster;
import io.gitfn.testbed.git.BareRepository;
import io.gitfn.testbed.git.GitClient;
import io.gitfn.testbed.git.GitHttpServer;
import io.gitfn.testbed.git.GitServers;
import io.gitfn.testbed.git.WorkingCopy;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Functions whose source is a folder of a Git repository, in cluster mode: the key is the folder's tree, so only
 * commits that change the folder build, and a revert goes back to the image built before.
 */
@WithKubeCluster
@ExtendWith(GitServers.class)
class GitFunctionIT {

  private static ControllerUnderTest running;

  @BeforeAll
  static void startController(KubeTestBed bed) throws Exception {
    running = ControllerUnderTest.start(bed, "git-function",
        ControllerSettings.defaults().withFunctionSourceInterval(Duration.ofSeconds(1)));
  }

  @AfterAll
  static void stopController() throws Exception {
    running.close();
  }

  @Test
  void onlyCommitsThatChangeBaseDirBuildAndARevertReusesTheEarlierImage(KubernetesClient client, TestNamespace ns,
      GitHttpServer http, BareRepository repository, GitClient git) throws Exception {
    WorkingCopy copy = git.clone(http.url(repository.name()));
    String first = copy.write("functions/hello/handler.js", V1)
        .write("functions/hello/package.json", "{\"name\": \"hello\"}\n")
        .write("README.md", "# functions\n").commit("hello v1");
    copy.push();

    try (JobLog created = JobLog.watch(client, ns)) {
      createFunction(client, ns, http, repository);
      Function ready = awaitReady(client, ns, "main@sha1:" + first);
      String firstImage = ready.getStatus().getImage();
      assertThat(ready.getStatus().getCommit()).isEqualTo(first);
      assertThat(ready.getStatus().getReference()).isEqualTo("main");
      assertThat(ready.getStatus().getBaseDir()).isEqualTo("functions/hello");
      assertThat(created.names()).as("the namespace's first install: the runtime and no dependencies").hasSize(1);
      assertThat(firstImage).as("by digest").contains("/" + ns.name() + "/hello:").contains("@sha256:");

      String docs = copy.write("README.md", "# functions, documented\n").commit("docs only");
      copy.push();
      Function afterDocs = awaitReady(client, ns, "main@sha1:" + docs);
      assertThat(afterDocs.getStatus().getImage()).isEqualTo(firstImage);
      assertThat(created.names()).as("a commit outside baseDir builds nothing").hasSize(1);

      String second = copy.write("functions/hello/handler.js", V2).commit("hello v2");
      copy.push();
      Function afterChange = awaitReady(client, ns, "main@sha1:" + second);
      assertThat(afterChange.getStatus().getImage()).isNotEqualTo(firstImage);
      assertThat(image(deployment(client, ns))).isEqualTo(afterChange.getStatus().getImage());
      assertThat(created.names()).as("a handler change starts no Job").hasSize(1);

      copy.git("revert", "--no-edit", "HEAD");
      String reverted = copy.head();
      copy.push();
      Function afterRevert = awaitReady(client, ns, "main@sha1:" + reverted);
      assertThat(afterRevert.getStatus().getImage()).isEqualTo(firstImage);
      assertThat(image(deployment(client, ns))).isEqualTo(firstImage);
      assertThat(created.names()).as("a revert builds nothing").hasSize(1);
      assertThat(afterRevert.getStatus().getHistory()).extracting("outcome", "revision").first()
          .isEqualTo(org.assertj.core.groups.Tuple.tuple("Reused", "main@sha1:" + reverted));
    }
  }

  @Test
  void aPinHoldsAnEarlierImageThroughNewCommitsUntilUnpinned(KubernetesClient client, TestNamespace ns,
      GitHttpServer http, BareRepository repository, GitClient git) throws Exception {
    WorkingCopy copy = git.clone(http.url(repository.name()));
    String first = copy.write("functions/hello/handler.js", V1).commit("hello v1");
    copy.push();
    createFunction(client, ns, http, repository);
    String firstImage = awaitReady(client, ns, "main@sha1:" + first).getStatus().getImage();
    String second = copy.write("functions/hello/handler.js", V2).commit("hello v2");
    copy.push();
    String secondImage = awaitReady(client, ns, "main@sha1:" + second).getStatus().getImage();

    annotate(client, ns, "main@sha1:" + first);
    await().atMost(WAIT).untilAsserted(() -> {
      Function fn = get(client, ns);
      assertThat(fn.getStatus().getPinnedRevision()).isEqualTo("main@sha1:" + first);
      assertThat(fn.getStatus().getImage()).isEqualTo(firstImage);
      assertThat(image(deployment(client, ns))).isEqualTo(firstImage);
    });

    String third = copy.write("functions/hello/handler.js", V2 + "// a comment\n").commit("hello v3");
    copy.push();
    await().atMost(WAIT).until(() -> third.equals(get(client, ns).getStatus().getCommit()));
    assertThat(image(deployment(client, ns))).as("the pin holds through a new commit").isEqualTo(firstImage);

    annotate(client, ns, null);
    await().atMost(WAIT).untilAsserted(() -> {
      Function fn = get(client, ns);
      assertThat(fn.getStatus().getPinnedRevision()).isNull();
      assertThat(fn.getStatus().getImage()).isNotIn(firstImage, secondImage);
      assertThat(image(deployment(client, ns))).isEqualTo(fn.getStatus().getImage());
    });
  }

  @Test
  void aPinToARevisionWithoutAnImageIsReportedAndChangesNothing(KubernetesClient client, TestNamespace ns,
      GitHttpServer http, BareRepository repository, GitClient git) throws Exception {
    WorkingCopy copy = git.clone(http.url(repository.name()));
    String first = copy.write("functions/hello/handler.js", V1).commit("hello v1");
    copy.push();
    createFunction(client, ns, http, repository);
    String image = awaitReady(client, ns, "main@sha1:" + first).getStatus().getImage();

    annotate(client, ns, "main@sha1:0000000000000000000000000000000000000000");

    await().atMost(WAIT).untilAsserted(() -> assertThat(condition(get(client, ns), "ConfigurationReady"))
        .satisfies(c -> {
          assertThat(c.getStatus()).isEqualTo("False");
          assertThat(c.getReason()).isEqualTo("PinnedRevisionUnknown");
          assertThat(c.getMessage()).contains("--unpin");
        }));
    assertThat(image(deployment(client, ns))).isEqualTo(image);
  }

  @Test
  void aMissingBaseDirIsASourceErrorNamingIt(KubernetesClient client, TestNamespace ns, GitHttpServer http,
      BareRepository repository, GitClient git) throws Exception {
    WorkingCopy copy = git.clone(http.url(repository.name()));
    copy.write("elsewhere/handler.js", V1).commit("no hello");
    copy.push();

    createFunction(client, ns, http, repository);

    await().atMost(WAIT).untilAsserted(() -> assertThat(condition(get(client, ns), "ConfigurationReady"))
        .satisfies(c -> {
          assertThat(c.getStatus()).isEqualTo("False");
          assertThat(c.getReason()).isEqualTo("SourceUpdateFailed");
          assertThat(c.getMessage()).contains("baseDir 'functions/hello' does not exist");
        }));
    assertThat(client.batch().v1().jobs().inNamespace(ns.name()).list().getItems()).isEmpty();
  }

  @Test
  void anAuthSecretCreatedAfterTheFunctionIsFoundWithoutASpecChange(KubernetesClient client, TestNamespace ns,
      GitHttpServer http, BareRepository repository, GitClient git) throws Exception {
    WorkingCopy copy = git.clone(http.url(repository.name()));
    String first = copy.write("functions/hello/handler.js", V1).commit("hello v1");
    copy.push();
    createFunctionWithoutSecret(client, ns, http, repository);
    await().atMost(WAIT).untilAsserted(() -> assertThat(condition(get(client, ns), "ConfigurationReady"))
        .satisfies(c -> {
          assertThat(c.getReason()).isEqualTo("InvalidFunctionSpec");
          assertThat(c.getMessage()).contains("Secret " + ns.name() + "/git not found");
        }));

    gitSecret(client, ns.name(), http);

    awaitReady(client, ns, "main@sha1:" + first);
  }

  private static void createFunction(KubernetesClient client, TestNamespace ns, GitHttpServer http,
      BareRepository repository) {
    gitSecret(client, ns.name(), http);
    createFunctionWithoutSecret(client, ns, http, repository);
  }

  /** A Function that reads its repository with the Secret {@code git}. */
  private static void createFunctionWithoutSecret(KubernetesClient client, TestNamespace ns, GitHttpServer http,
      BareRepository repository) {
    client.resource(hello(ns, http, repository).build()).create();
  }

  /** Sets or removes the pin with a merge patch, as `gitfn rollback function` does: no conflict with the controller. */
  private static void annotate(KubernetesClient client, TestNamespace ns, String pin) {
    String value = pin == null ? "null" : "\"" + pin + "\"";
    client.resources(Function.class).inNamespace(ns.name()).withName("hello").patch(
        io.fabric8.kubernetes.client.dsl.base.PatchContext.of(io.fabric8.kubernetes.client.dsl.base.PatchType.JSON_MERGE),
        "{\"metadata\": {\"annotations\": {\"" + Annotations.PINNED_REVISION + "\": " + value + "}}}");
  }
}
