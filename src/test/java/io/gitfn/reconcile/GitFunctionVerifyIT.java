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

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.gitfn.api.Annotations;
import io.gitfn.api.VerificationStatus;
import io.gitfn.api.function.Function;
import io.gitfn.api.function.FunctionHistoryEntry;
import io.gitfn.testbed.KubeTestBed;
import io.gitfn.testbed.TestNamespace;
import io.gitfn.testbed.WithKubeCluster;
import io.gitfn.testbed.git.BareRepository;
import io.gitfn.testbed.git.GitClient;
import io.gitfn.testbed.git.GitHttpServer;
import io.gitfn.testbed.git.GitServers;
import io.gitfn.testbed.git.SigningKey;
import io.gitfn.testbed.git.WorkingCopy;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A Git-sourced Function with {@code gitfn.io/verify-mode} and {@code gitfn.io/verify-secret}, in cluster mode, with
 * commits signed by {@code git} itself ({@code gpg.format=ssh}, keys made by {@code ssh-keygen}): a revision whose
 * signatures verify is built, runs, and is recorded with its signer's key; one that does not is never built,
 * ConfigurationReady says why, naming the commit, and the signed version keeps running. FunctionRepository's
 * {@code spec.verify} is SignedRevisionsIT's, and every failure reason the verifier's own tests'.
 */
@WithKubeCluster
@ExtendWith(GitServers.class)
class GitFunctionVerifyIT {

  private static ControllerUnderTest running;
  private static KubeTestBed testBed;

  @TempDir static Path keys;
  static SigningKey alice;
  static SigningKey mallory;

  @BeforeAll
  static void start(KubeTestBed bed) throws Exception {
    testBed = bed;
    alice = SigningKey.generate(keys, "alice", "alice@gitfn.invalid");
    mallory = SigningKey.generate(keys, "mallory", "mallory@gitfn.invalid");
    running = startController("git-function-verify");
  }

  @AfterAll
  static void stop() throws Exception {
    running.close();
  }

  @Test
  void aSignedHeadRunsAndAnUnsignedCommitAfterItIsNeverBuiltWhileTheSignedVersionKeepsRunning(
      KubernetesClient client, TestNamespace ns, GitHttpServer http, BareRepository repository, GitClient git)
      throws Exception {
    WorkingCopy copy = git.clone(http.url(repository.name()));
    copy.write("functions/hello/handler.js", V1);
    String signed = alice.commit(copy, "hello v1");
    copy.push();
    create(client, ns, http, repository, "HEAD");

    Function ready = awaitReady(client, ns, "main@sha1:" + signed);
    VerificationStatus verified = ready.getStatus().getVerification();
    assertThat(verified.getRevision()).isEqualTo("main@sha1:" + signed);
    assertThat(verified.getMode()).isEqualTo("HEAD");
    assertThat(verified.getKeyFingerprint()).isEqualTo(alice.fingerprint());
    assertThat(verified.getSigner()).contains("alice@gitfn.invalid");
    String image = ready.getStatus().getImage();

    String unsigned = copy.write("functions/hello/handler.js", V2).commit("hello v2, unsigned");
    copy.push();
    Condition refused = awaitRefused(client, ns, "UnsignedCommit", unsigned);
    assertThat(refused.getMessage()).contains("the running version stays");
    assertStays(client, ns, signed, image, unsigned);

    String byMallory = mallory.commit(copy, "hello v2, signed by a key nobody trusts");
    copy.push();
    assertThat(awaitRefused(client, ns, "UnknownKey", byMallory).getMessage()).contains(mallory.fingerprint());
    assertStays(client, ns, signed, image, byMallory);

    // Trusting Mallory's key is what a person does to let the revision in; Secrets are not watched, and the
    // Function looks again after its source interval.
    String mallorysKey = mallory.publicLine();
    client.secrets().inNamespace(ns.name()).withName("trusted").edit(s -> new SecretBuilder(s)
        .addToStringData("mallory.sshpub", mallorysKey).build());
    Function trusted = awaitReady(client, ns, "main@sha1:" + byMallory);
    assertThat(trusted.getStatus().getVerification().getKeyFingerprint()).isEqualTo(mallory.fingerprint());
    assertThat(trusted.getStatus().getImage()).isNotEqualTo(image);
  }

  @Test
  void rangeRefusesAnUnsignedCommitUnderASignedHeadEvenAfterARestartWithAnEmptyMirror(KubernetesClient client,
      TestNamespace ns, GitHttpServer http, BareRepository repository, GitClient git) throws Exception {
    WorkingCopy copy = git.clone(http.url(repository.name()));
    copy.write("functions/hello/handler.js", V1);
    String first = alice.commit(copy, "hello v1");
    copy.push();
    create(client, ns, http, repository, "Range");
    String image = awaitReady(client, ns, "main@sha1:" + first).getStatus().getImage();

    // The controller goes away; meanwhile an unsigned commit is pushed under a signed one.
    running.close();
    String unsigned = copy.write("functions/hello/handler.js", V2).commit("hello v2, unsigned");
    copy.write("functions/hello/handler.js", V2 + "// signed on top\n");
    String head = alice.commit(copy, "hello v3, signed on top");
    copy.push();
    running = startController("git-function-verify-again");

    Condition refused = awaitRefused(client, ns, "UnsignedCommit", unsigned);
    assertThat(refused.getMessage()).contains("main@sha1:" + head).contains("in mode Range");
    assertStays(client, ns, first, image, head);
    assertThat(get(client, ns).getStatus().getVerification().getRevision())
        .as("the last verified revision stays where Range starts").isEqualTo("main@sha1:" + first);
  }

  private static ControllerUnderTest startController(String name) throws Exception {
    return ControllerUnderTest.start(testBed, name,
        ControllerSettings.defaults().withFunctionSourceInterval(Duration.ofSeconds(1)));
  }

  /** hello, verified in {@code mode} with alice's key in the Secret {@code trusted}. */
  private static void create(KubernetesClient client, TestNamespace ns, GitHttpServer http,
      BareRepository repository, String mode) throws Exception {
    gitSecret(client, ns.name(), http);
    client.secrets().inNamespace(ns.name()).resource(new SecretBuilder().withNewMetadata().withName("trusted")
        .endMetadata().withStringData(Map.of("alice.sshpub", alice.publicLine())).build()).create();
    client.resource(hello(ns, http, repository).metadataAnnotation(Annotations.VERIFY_MODE, mode)
        .metadataAnnotation(Annotations.VERIFY_SECRET, "trusted").build()).create();
  }

  /**
   * ConfigurationReady turns False with SourceVerificationFailed, its message starting with {@code failure} and
   * naming {@code commit}, and a Warning Event says so.
   */
  private static Condition awaitRefused(KubernetesClient client, TestNamespace ns, String failure, String commit) {
    await().atMost(WAIT).untilAsserted(() -> {
      assertThat(condition(get(client, ns), "ConfigurationReady")).satisfies(c -> {
        assertThat(c.getStatus()).isEqualTo("False");
        assertThat(c.getReason()).isEqualTo("SourceVerificationFailed");
        assertThat(c.getMessage()).startsWith(failure + ": ").contains(commit);
      });
      assertThat(client.v1().events().inNamespace(ns.name()).list().getItems()).anySatisfy(e -> {
        assertThat(e.getType()).isEqualTo("Warning");
        assertThat(e.getReason()).isEqualTo("SourceVerificationFailed");
      });
    });
    return condition(get(client, ns), "ConfigurationReady");
  }

  /**
   * The Function stays at the verified commit {@code signed}: its status says so, its Deployment runs
   * {@code image}, and its history has no build of {@code refused}.
   */
  private static void assertStays(KubernetesClient client, TestNamespace ns, String signed, String image,
      String refused) {
    Function fn = get(client, ns);
    assertThat(fn.getStatus().getCommit()).isEqualTo(signed);
    assertThat(fn.getStatus().getSourceRevision()).isEqualTo("main@sha1:" + signed);
    assertThat(fn.getStatus().getVerification().getRevision()).isEqualTo("main@sha1:" + signed);
    assertThat(fn.getStatus().getImage()).isEqualTo(image);
    assertThat(image(deployment(client, ns))).isEqualTo(image);
    assertThat(fn.getStatus().getHistory()).extracting(FunctionHistoryEntry::getRevision)
        .doesNotContain("main@sha1:" + refused);
  }
}
