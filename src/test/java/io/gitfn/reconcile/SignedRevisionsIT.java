package io.gitfn.reconcile;

import static io.gitfn.api.function.FunctionRuntime.NODEJS22;
import static io.gitfn.reconcile.Repositories.condition;
import static io.gitfn.reconcile.Repositories.create;
import static io.gitfn.reconcile.Repositories.function;
import static io.gitfn.reconcile.Repositories.gitSecret;
import static io.gitfn.reconcile.Repositories.repository;
import static io.gitfn.reconcile.Repositories.requestReconcile;
import static io.gitfn.reconcile.Repositories.version;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.gitfn.api.VerificationStatus;
import io.gitfn.api.repository.FunctionRepository;
import io.gitfn.api.repository.SyncRecord;
import io.gitfn.testbed.KubeTestBed;
import io.gitfn.testbed.TestNamespace;
import io.gitfn.testbed.WithKubeApi;
import io.gitfn.testbed.git.BareRepository;
import io.gitfn.testbed.git.GitClient;
import io.gitfn.testbed.git.GitHttpServer;
import io.gitfn.testbed.git.GitServers;
import io.gitfn.testbed.git.SigningKey;
import io.gitfn.testbed.git.WorkingCopy;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code spec.verify} through the controller, against a real API server and a real Git server, with commits and
 * tags signed by {@code git} itself ({@code gpg.format=ssh}, keys made by {@code ssh-keygen}): a revision whose
 * signatures verify is applied and its signer recorded; one that does not is fetched, not applied, the condition
 * names the commit, and what ran keeps running. Every failure reason is tested on the verifier itself
 * ({@code io.gitfn.source.verify}, OpenPGP and SSH); here each mode's wiring is.
 */
@WithKubeApi
@ExtendWith(GitServers.class)
class SignedRevisionsIT {

  private static final Duration WAIT = Duration.ofSeconds(30);
  private static ControllerUnderTest running;
  private static KubeTestBed testBed;

  @TempDir static Path keys;
  static SigningKey alice;
  static SigningKey mallory;
  static SigningKey forge;

  @BeforeAll
  static void start(KubeTestBed bed) throws Exception {
    testBed = bed;
    alice = SigningKey.generate(keys, "alice", "alice@gitfn.invalid");
    mallory = SigningKey.generate(keys, "mallory", "mallory@gitfn.invalid");
    forge = SigningKey.generate(keys, "web-flow", "noreply@forge.invalid");
    running = ControllerUnderTest.start(bed, "signed", ControllerSettings.defaults());
  }

  @AfterAll
  static void stop() throws Exception {
    running.close();
  }

  @Test
  void headModeAppliesSignedCommitsAndKeepsTheLastOneRunningWhenAnUnsignedOrUnknownOneArrives(
      KubernetesClient client, TestNamespace ns, GitHttpServer http, BareRepository repository, GitClient git)
      throws Exception {
    WorkingCopy copy = git.clone(http.url(repository.name()));
    copy.write("functions/hello.yaml", function("hello", NODEJS22, "v1").toYaml());
    String signed = alice.commit(copy, "v1");
    copy.push();
    setUp(client, ns.name(), http, Map.of("alice.sshpub", alice.publicLine()));
    create(client, ns.name(), "infra", http.url(repository.name()),
        Map.of("verify", Map.of("mode", "HEAD", "secretRef", Map.of("name", "trusted"))));

    await().atMost(WAIT).untilAsserted(() -> {
      assertThat(version(client, ns.name(), "hello")).isEqualTo("v1");
      VerificationStatus verified = repository(client, ns.name(), "infra").getStatus().getVerification();
      assertThat(verified.getRevision()).isEqualTo("main@sha1:" + signed);
      assertThat(verified.getKeyFingerprint()).isEqualTo(alice.fingerprint());
      assertThat(verified.getSigner()).contains("alice@gitfn.invalid");
      assertThat(condition(client, ns.name(), "infra", "SourceVerified")).hasValueSatisfying(c -> {
        assertThat(c.getStatus()).isEqualTo("True");
        assertThat(c.getReason()).isEqualTo("Succeeded");
      });
    });
    SyncRecord applied = repository(client, ns.name(), "infra").getStatus().getHistory().get(0);
    assertThat(applied.getOutcome()).isEqualTo("Applied");
    assertThat(applied.getKeyFingerprint()).isEqualTo(alice.fingerprint());

    copy.write("functions/hello.yaml", function("hello", NODEJS22, "v2").toYaml());
    String unsigned = copy.commit("v2, unsigned");
    copy.push();
    requestReconcile(client, ns.name(), "infra");
    assertRefused(client, ns.name(), "UnsignedCommit", unsigned, signed);

    copy.write("functions/hello.yaml", function("hello", NODEJS22, "v3").toYaml());
    String byMallory = mallory.commit(copy, "v3, signed by a key nobody trusts");
    copy.push();
    requestReconcile(client, ns.name(), "infra");
    Condition unknown = assertRefused(client, ns.name(), "UnknownKey", byMallory, signed);
    assertThat(unknown.getMessage()).contains(mallory.fingerprint());

    // Trusting Mallory's key in the Secret is what a person does to let the revision in; the next pass sees it.
    String mallorysKey = mallory.publicLine();
    client.secrets().inNamespace(ns.name()).withName("trusted").edit(s -> new SecretBuilder(s)
        .addToStringData("mallory.sshpub", mallorysKey).build());
    requestReconcile(client, ns.name(), "infra");
    await().atMost(WAIT).untilAsserted(() -> {
      assertThat(version(client, ns.name(), "hello")).isEqualTo("v3");
      assertThat(repository(client, ns.name(), "infra").getStatus().getVerification().getKeyFingerprint())
          .isEqualTo(mallory.fingerprint());
    });
  }

  @Test
  void rangeModeRefusesAnUnsignedCommitUnderASignedHeadEvenAfterARestartWithAnEmptyMirror(
      KubernetesClient client, TestNamespace ns, GitHttpServer http, BareRepository repository, GitClient git)
      throws Exception {
    WorkingCopy copy = git.clone(http.url(repository.name()));
    copy.write("functions/hello.yaml", function("hello", NODEJS22, "v1").toYaml());
    String first = alice.commit(copy, "v1");
    copy.push();
    setUp(client, ns.name(), http, Map.of("alice.sshpub", alice.publicLine()));
    create(client, ns.name(), "infra", http.url(repository.name()),
        Map.of("verify", Map.of("mode", "Range", "secretRef", Map.of("name", "trusted"))));
    await().atMost(WAIT).untilAsserted(() -> assertThat(version(client, ns.name(), "hello")).isEqualTo("v1"));

    // The controller goes away; meanwhile an unsigned commit is pushed under a signed one.
    running.close();
    copy.write("functions/hello.yaml", function("hello", NODEJS22, "v2").toYaml());
    String unsigned = copy.commit("v2, unsigned");
    copy.write("functions/hello.yaml", function("hello", NODEJS22, "v3").toYaml());
    alice.commit(copy, "v3, signed on top");
    copy.push();
    running = ControllerUnderTest.start(testBed, "signed-again", ControllerSettings.defaults());
    requestReconcile(client, ns.name(), "infra");

    Condition refused = assertRefused(client, ns.name(), "UnsignedCommit", unsigned, first);
    assertThat(refused.getMessage()).contains("mode Range");
    assertThat(repository(client, ns.name(), "infra").getStatus().getVerification().getRevision())
        .as("the last verified revision stays where Range starts").isEqualTo("main@sha1:" + first);

    // Signing the commit in the middle (a rewrite of the branch) lets the range through.
    copy.git("reset", "--quiet", "--hard", first);
    copy.write("functions/hello.yaml", function("hello", NODEJS22, "v2").toYaml());
    alice.commit(copy, "v2, signed");
    copy.write("functions/hello.yaml", function("hello", NODEJS22, "v3").toYaml());
    String head = alice.commit(copy, "v3, signed");
    copy.git("push", "--quiet", "--force", "origin", "HEAD");
    requestReconcile(client, ns.name(), "infra");
    await().atMost(WAIT).untilAsserted(() -> {
      assertThat(version(client, ns.name(), "hello")).isEqualTo("v3");
      assertThat(condition(client, ns.name(), "infra", "SourceVerified")).hasValueSatisfying(c ->
          assertThat(c.getMessage()).contains("2 objects verified").contains(head));
    });
  }

  @Test
  void tagModeVerifiesTheAnnotatedTagThatSemverPicksAndRefusesALightweightOne(
      KubernetesClient client, TestNamespace ns, GitHttpServer http, BareRepository repository, GitClient git)
      throws Exception {
    WorkingCopy copy = git.clone(http.url(repository.name()));
    copy.write("functions/hello.yaml", function("hello", NODEJS22, "v1").toYaml());
    copy.commit("v1, the commit itself unsigned");
    String tag = alice.tag(copy, "v1.0.0");
    copy.push("HEAD", "refs/tags/v1.0.0");
    setUp(client, ns.name(), http, Map.of("alice.sshpub", alice.publicLine()));
    client.resource(client.getKubernetesSerialization().unmarshal("""
        ---
        {apiVersion: gitfn.io/v1alpha1, kind: FunctionRepository, metadata: {name: infra, namespace: %s},
         spec: {url: '%s', ref: {semver: '>=1.0.0'}, path: functions, interval: 1h, secretRef: {name: git},
                verify: {mode: Tag, secretRef: {name: trusted}}}}
        """.formatted(ns.name(), http.url(repository.name())), FunctionRepository.class)).create();
    await().atMost(WAIT).untilAsserted(() -> {
      assertThat(version(client, ns.name(), "hello")).isEqualTo("v1");
      assertThat(condition(client, ns.name(), "infra", "SourceVerified")).hasValueSatisfying(c ->
          assertThat(c.getMessage()).contains("tag " + tag));
    });

    copy.write("functions/hello.yaml", function("hello", NODEJS22, "v2").toYaml());
    String commit = copy.commit("v2");
    copy.tag("v1.1.0");
    copy.push("HEAD", "refs/tags/v1.1.0");
    requestReconcile(client, ns.name(), "infra");
    assertRefused(client, ns.name(), "UnsignedTag", commit, null);
    assertThat(version(client, ns.name(), "hello")).isEqualTo("v1");
  }

  @Test
  void aForgeKeyVouchesForAWebMergeOfSignedCommitsOnly(
      KubernetesClient client, TestNamespace ns, GitHttpServer http, BareRepository repository, GitClient git)
      throws Exception {
    WorkingCopy copy = git.clone(http.url(repository.name()));
    copy.write("functions/hello.yaml", function("hello", NODEJS22, "v1").toYaml());
    String base = alice.commit(copy, "v1");
    copy.push();
    setUp(client, ns.name(), http, Map.of("alice.sshpub", alice.publicLine(),
        "web-flow.forge.sshpub", forge.publicLine()));
    create(client, ns.name(), "infra", http.url(repository.name()),
        Map.of("verify", Map.of("mode", "HEAD", "secretRef", Map.of("name", "trusted"))));
    await().atMost(WAIT).untilAsserted(() -> assertThat(version(client, ns.name(), "hello")).isEqualTo("v1"));

    // A pull request whose one commit is signed, merged in the forge's web UI: the forge signs the merge.
    copy.git("checkout", "--quiet", "-b", "signed-branch");
    copy.write("functions/hello.yaml", function("hello", NODEJS22, "v2").toYaml());
    alice.commit(copy, "v2");
    String merge = webMerge(copy, "signed-branch");
    copy.push();
    requestReconcile(client, ns.name(), "infra");
    await().atMost(WAIT).untilAsserted(() -> {
      assertThat(version(client, ns.name(), "hello")).isEqualTo("v2");
      VerificationStatus verified = repository(client, ns.name(), "infra").getStatus().getVerification();
      assertThat(verified.getRevision()).isEqualTo("main@sha1:" + merge);
      assertThat(verified.getKeyFingerprint()).isEqualTo(forge.fingerprint());
    });

    // The same with an unsigned commit: the forge's signature vouches for nothing it did not check.
    copy.git("checkout", "--quiet", "-b", "unsigned-branch");
    copy.write("functions/hello.yaml", function("hello", NODEJS22, "v3").toYaml());
    String unsigned = copy.commit("v3, unsigned");
    webMerge(copy, "unsigned-branch");
    copy.push();
    requestReconcile(client, ns.name(), "infra");
    Condition refused = assertRefused(client, ns.name(), "UnsignedCommit", unsigned, merge);
    assertThat(refused.getMessage()).contains("forge key");
    assertThat(base).isNotBlank();
  }

  /**
   * The repository stalls with {@code reason}, naming {@code commit}; the Function and the applied revision stay
   * at {@code stays} (null: at what applied before, unchecked); the history records the refusal; and the Warning
   * Event says why.
   */
  private static Condition assertRefused(KubernetesClient client, String namespace, String reason, String commit,
      String stays) {
    await().atMost(WAIT).untilAsserted(() -> {
      assertThat(condition(client, namespace, "infra", "SourceVerified")).hasValueSatisfying(c -> {
        assertThat(c.getStatus()).isEqualTo("False");
        assertThat(c.getReason()).isEqualTo(reason);
        assertThat(c.getMessage()).contains(commit);
      });
      assertThat(condition(client, namespace, "infra", "Ready")).hasValueSatisfying(c -> {
        assertThat(c.getStatus()).isEqualTo("False");
        assertThat(c.getReason()).isEqualTo(reason);
      });
      assertThat(condition(client, namespace, "infra", "Stalled")).hasValueSatisfying(c ->
          assertThat(c.getStatus()).isEqualTo("True"));
      assertThat(repository(client, namespace, "infra").getStatus().getHistory().get(0).getOutcome())
          .isEqualTo("Failed");
      List<Event> events = client.v1().events().inNamespace(namespace).list().getItems();
      assertThat(events).anySatisfy(e -> {
        assertThat(e.getType()).isEqualTo("Warning");
        assertThat(e.getReason()).isEqualTo(reason);
      });
    });
    if (stays != null) {
      assertThat(repository(client, namespace, "infra").getStatus().getLastAppliedRevision())
          .isEqualTo("main@sha1:" + stays);
    }
    return condition(client, namespace, "infra", "SourceVerified").orElseThrow();
  }

  private static void setUp(KubernetesClient client, String namespace, GitHttpServer http,
      Map<String, String> trusted) {
    gitSecret(client, namespace, http);
    client.secrets().inNamespace(namespace).resource(new SecretBuilder().withNewMetadata().withName("trusted")
        .endMetadata().withStringData(trusted).build()).create();
  }

  /** What a forge's merge button does: a merge commit into main, signed with the forge's key. */
  private static String webMerge(WorkingCopy copy, String branch) {
    copy.git("checkout", "--quiet", "main");
    forge.git(copy, "merge", "--quiet", "--no-ff", "-S", "--message", "Merge pull request from " + branch, branch);
    return copy.head();
  }
}
