package io.gitfn.reconcile;

import static io.gitfn.api.function.FunctionRuntime.NODEJS22;
import static io.gitfn.reconcile.Repositories.condition;
import static io.gitfn.reconcile.Repositories.create;
import static io.gitfn.reconcile.Repositories.function;
import static io.gitfn.reconcile.Repositories.gitSecret;
import static io.gitfn.reconcile.Repositories.repository;
import static io.gitfn.reconcile.Repositories.requestReconcile;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.core.read.ListAppender;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.NonDeletingOperation;
import io.gitfn.api.Annotations;
import io.gitfn.api.Labels;
import io.gitfn.api.function.Function;
import io.gitfn.api.repository.AppliedSecret;
import io.gitfn.api.repository.Decryption;
import io.gitfn.api.repository.FunctionRepository;
import io.gitfn.api.repository.SecretRef;
import io.gitfn.secrets.sops.Tool;
import io.gitfn.testbed.KubeTestBed;
import io.gitfn.testbed.SecretTools;
import io.gitfn.testbed.SecretTools.AgeKey;
import io.gitfn.testbed.TestNamespace;
import io.gitfn.testbed.WithKubeApi;
import io.gitfn.testbed.git.BareRepository;
import io.gitfn.testbed.git.GitClient;
import io.gitfn.testbed.git.GitHttpServer;
import io.gitfn.testbed.git.GitServers;
import io.gitfn.testbed.git.WorkingCopy;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * {@code spec.decryption} through the controller, against a real API server and a real Git server, with Secrets the
 * real {@code sops} encrypted to two age recipients that {@code age-keygen} made: the Secret is applied with either
 * identity, a Function that mounts it carries a new digest when its content changes (a new Pod template, not a new
 * build), a tampered file or a missing identity refuses the whole revision and keeps what runs, and a Secret that
 * leaves Git is pruned. No decrypted value reaches a log line, an Event or a status.
 */
@WithKubeApi
@ExtendWith(GitServers.class)
class EncryptedSecretsIT {

  private static final Duration WAIT = Duration.ofSeconds(30);
  private static final String PASSWORD = "pw-" + System.nanoTime();
  private static final String CHANGED = "changed-" + System.nanoTime();
  private static ControllerUnderTest running;
  private static SecretTools tools;
  private static final ListAppender<ILoggingEvent> LOG = new ListAppender<>();

  @TempDir static Path dir;

  @BeforeAll
  static void start(KubeTestBed bed) throws Exception {
    tools = SecretTools.locate();
    LOG.start();
    ((Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME)).addAppender(LOG);
    running = ControllerUnderTest.start(bed, "encrypted", ControllerSettings.defaults());
  }

  @AfterAll
  static void stop() throws Exception {
    running.close();
    ((Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME)).detachAppender(LOG);
  }

  @Test
  void anEncryptedSecretAppliesWithEitherIdentityRollsItsFunctionAndARefusedOneKeepsWhatRuns(
      KubernetesClient client, TestNamespace ns, GitHttpServer http, BareRepository repository, GitClient git)
      throws Exception {
    AgeKey first = identity("first");
    AgeKey second = identity("second");
    AgeKey stranger = identity("stranger");
    String recipients = first.recipient() + "," + second.recipient();
    WorkingCopy copy = git.clone(http.url(repository.name()));
    // Buildless, so that its Deployment exists on a test bed that runs no build: what rolls is visible there.
    copy.write("functions/hello.yaml", hello("v1"))
        .write("functions/lonely.yaml", function("lonely", NODEJS22, "v1")
            .metadataAnnotation(Annotations.BUILD_MODE, "buildless").toYaml())
        .write("functions/db.yaml", encrypt(secret(PASSWORD), recipients));
    copy.commit("hello with its database password");
    copy.push();
    gitSecret(client, ns.name(), http);
    identities(client, ns.name(), first);
    create(client, ns.name(), "infra", http.url(repository.name()),
        Map.of("decryption", Map.of("provider", "sops", "secretRef", Map.of("name", "age"))));

    await().atMost(WAIT).untilAsserted(() -> {
      assertThat(password(client, ns.name())).isEqualTo(PASSWORD);
      assertThat(appliedSecrets(client, ns.name())).singleElement().satisfies(s -> {
        assertThat(s.getName()).isEqualTo("db");
        assertThat(s.getFile()).isEqualTo("functions/db.yaml");
        assertThat(s.getRecipient()).isEqualTo(first.recipient());
      });
      assertThat(digest(client, ns.name(), "hello")).startsWith("hmac-sha256:");
      assertThat(podTemplateDigest(client, ns.name())).isEqualTo(digest(client, ns.name(), "hello"));
    });
    Secret applied = client.secrets().inNamespace(ns.name()).withName("db").get();
    assertThat(applied.getMetadata().getLabels()).containsEntry(Labels.REPOSITORY, ns.name() + ".infra");
    assertThat(digest(client, ns.name(), "lonely")).as("a Function that reads no Secret has no digest").isNull();
    String firstDigest = digest(client, ns.name(), "hello");
    long generation = fn(client, ns.name(), "hello").getMetadata().getGeneration();

    // Key rotation: only the second identity is left; the same Secret applies, and status names the new recipient.
    identities(client, ns.name(), second);
    requestReconcile(client, ns.name(), "infra");
    await().atMost(WAIT).untilAsserted(() -> assertThat(appliedSecrets(client, ns.name())).singleElement()
        .satisfies(s -> assertThat(s.getRecipient()).isEqualTo(second.recipient())));
    assertThat(password(client, ns.name())).isEqualTo(PASSWORD);

    // A new password: the Secret and the Function's digest move; the Function's spec (its content key) does not.
    copy.write("functions/db.yaml", encrypt(secret(CHANGED), recipients));
    copy.commit("rotate the database password");
    copy.push();
    requestReconcile(client, ns.name(), "infra");
    await().atMost(WAIT).untilAsserted(() -> {
      assertThat(password(client, ns.name())).isEqualTo(CHANGED);
      assertThat(digest(client, ns.name(), "hello")).isNotEqualTo(firstDigest);
      assertThat(podTemplateDigest(client, ns.name())).as("new Pods").isEqualTo(digest(client, ns.name(), "hello"));
    });
    assertThat(fn(client, ns.name(), "hello").getMetadata().getGeneration())
        .as("no spec change, so the same content key").isEqualTo(generation);
    assertThat(client.batch().v1().jobs().inNamespace(ns.name()).list().getItems()).as("no build Job").isEmpty();
    String applyingRevision = repository(client, ns.name(), "infra").getStatus().getLastAppliedRevision();

    // A flipped byte in one value: the revision is refused whole, and the Secret keeps its value.
    copy.write("functions/db.yaml", flipValueByte(encrypt(secret("never-" + PASSWORD), recipients)))
        .write("functions/hello.yaml", hello("v2"));
    String tampered = copy.commit("a tampered value beside a new version");
    copy.push();
    requestReconcile(client, ns.name(), "infra");
    Condition refused = awaitRefused(client, ns.name(), tampered);
    assertThat(refused.getMessage()).contains("functions/db.yaml").contains("MacMismatch");
    assertThat(password(client, ns.name())).isEqualTo(CHANGED);
    assertThat(Repositories.version(client, ns.name(), "hello")).as("nothing of the revision").isEqualTo("v1");
    assertThat(repository(client, ns.name(), "infra").getStatus().getLastAppliedRevision())
        .isEqualTo(applyingRevision);

    // The MAC changed instead: refused the same way.
    copy.write("functions/db.yaml", flipMacByte(encrypt(secret("never-" + PASSWORD), recipients)))
        .write("functions/hello.yaml", hello("v2"));
    String badMac = copy.commit("a tampered MAC");
    copy.push();
    requestReconcile(client, ns.name(), "infra");
    assertThat(awaitRefused(client, ns.name(), badMac).getMessage()).contains("functions/db.yaml")
        .contains("MacMismatch");
    assertThat(password(client, ns.name())).isEqualTo(CHANGED);

    // An identity that opens neither recipient.
    copy.write("functions/db.yaml", encrypt(secret(CHANGED), recipients));
    String unopened = copy.commit("a good file again, but the controller holds a stranger's key");
    copy.push();
    identities(client, ns.name(), stranger);
    requestReconcile(client, ns.name(), "infra");
    assertThat(awaitRefused(client, ns.name(), unopened).getMessage()).contains("NoMatchingIdentity")
        .contains("functions/db.yaml");

    // The Secret leaves Git: pruned with the revision.
    identities(client, ns.name(), first);
    copy.git("rm", "--quiet", "functions/db.yaml");
    copy.write("functions/hello.yaml", function("hello", NODEJS22, "v3").toYaml());
    copy.commit("no database any more");
    copy.push();
    requestReconcile(client, ns.name(), "infra");
    await().atMost(WAIT).untilAsserted(() -> {
      assertThat(client.secrets().inNamespace(ns.name()).withName("db").get()).isNull();
      assertThat(repository(client, ns.name(), "infra").getStatus().getSecrets()).isNull();
      assertThat(digest(client, ns.name(), "hello")).isNull();
    });

    assertNoValueShown(client, ns.name(), List.of(PASSWORD, CHANGED, "never-" + PASSWORD,
        base64(PASSWORD), base64(CHANGED)));
  }

  @Test
  void anEncryptedSecretWithoutSpecDecryptionOrForAnotherNamespaceAppliesNothing(
      KubernetesClient client, TestNamespace ns, GitHttpServer http, BareRepository repository, GitClient git)
      throws Exception {
    AgeKey only = identity("only");
    WorkingCopy copy = git.clone(http.url(repository.name()));
    copy.write("functions/hello.yaml", function("hello", NODEJS22, "v1").toYaml())
        .write("functions/db.yaml", encrypt(secret(PASSWORD), only.recipient()));
    String head = copy.commit("a Secret, and no key for the controller");
    copy.push();
    gitSecret(client, ns.name(), http);
    create(client, ns.name(), "infra", http.url(repository.name()), Map.of());

    Condition refused = awaitRefused(client, ns.name(), head);
    assertThat(refused.getMessage()).contains("functions/db.yaml").contains("spec.decryption is not set");
    assertThat(Repositories.functionNames(client, ns.name())).isEmpty();

    // A Secret of identities with garbage in it: the entry at fault is named, and the value is not.
    client.secrets().inNamespace(ns.name()).resource(new SecretBuilder().withNewMetadata().withName("age")
        .endMetadata().withStringData(Map.of("garbage.agekey", "AGE-SECRET-KEY-1GARBAGEGARBAGE")).build()).create();
    client.resources(FunctionRepository.class).inNamespace(ns.name()).withName("infra").edit(r -> {
      r.getSpec().setDecryption(new Decryption("sops", new SecretRef("age")));
      return r;
    });
    await().atMost(WAIT).untilAsserted(() -> assertThat(condition(client, ns.name(), "infra", "Ready"))
        .hasValueSatisfying(c -> {
          assertThat(c.getReason()).isEqualTo("InvalidSecret");
          assertThat(c.getMessage()).contains("garbage.agekey").doesNotContain("GARBAGEGARBAGE");
        }));
    identities(client, ns.name(), only);
    requestReconcile(client, ns.name(), "infra");
    await().atMost(WAIT).untilAsserted(() -> assertThat(repository(client, ns.name(), "infra").getStatus()
        .getLastAppliedRevision()).as("the same revision, now that the controller holds its key")
        .isEqualTo("main@sha1:" + head));
    copy.write("functions/db.yaml", encrypt(secret(PASSWORD).replace("name: db",
        "name: db\n  namespace: kube-system"), only.recipient()));
    String elsewhere = copy.commit("a Secret for another tenant's namespace");
    copy.push();
    requestReconcile(client, ns.name(), "infra");
    assertThat(awaitRefused(client, ns.name(), elsewhere).getMessage()).contains("kube-system");
    assertThat(client.secrets().inNamespace("kube-system").withName("db").get()).isNull();
    assertThat(repository(client, ns.name(), "infra").getStatus().getLastAppliedRevision())
        .isEqualTo("main@sha1:" + head);
    assertNoValueShown(client, ns.name(), List.of(PASSWORD, base64(PASSWORD)));
  }

  private static Condition awaitRefused(KubernetesClient client, String namespace, String commit) {
    await().atMost(WAIT).untilAsserted(() -> {
      assertThat(condition(client, namespace, "infra", "Ready")).hasValueSatisfying(c -> {
        assertThat(c.getStatus()).isEqualTo("False");
        assertThat(c.getReason()).isEqualTo("DecryptionFailed");
        assertThat(c.getMessage()).contains(commit);
      });
      assertThat(condition(client, namespace, "infra", "Stalled")).hasValueSatisfying(c ->
          assertThat(c.getStatus()).isEqualTo("True"));
    });
    return condition(client, namespace, "infra", "Ready").orElseThrow();
  }

  /** Every log line this JVM wrote, every Event and the repository's and Functions' statuses, grepped. */
  private static void assertNoValueShown(KubernetesClient client, String namespace, List<String> values) {
    List<String> shown = new ArrayList<>();
    for (ILoggingEvent event : List.copyOf(LOG.list)) {
      shown.add(event.getFormattedMessage());
      for (IThrowableProxy cause = event.getThrowableProxy(); cause != null; cause = cause.getCause()) {
        shown.add(cause.getMessage());
      }
    }
    client.v1().events().inNamespace(namespace).list().getItems().forEach(e -> shown.add(e.getMessage()));
    shown.add(client.getKubernetesSerialization().asJson(repository(client, namespace, "infra").getStatus()));
    client.resources(Function.class).inNamespace(namespace).list().getItems()
        .forEach(f -> shown.add(client.getKubernetesSerialization().asJson(f)));
    assertThat(shown).as("log lines, Events and statuses").isNotEmpty();
    for (String value : values) {
      assertThat(shown).noneSatisfy(text -> assertThat(text).contains(value));
    }
  }

  private static String secret(String password) {
    return """
        apiVersion: v1
        kind: Secret
        metadata:
          name: db
        stringData:
          password: %s
          user: orders
        """.formatted(password);
  }

  private static String encrypt(String plaintext, String recipients) throws IOException {
    Path plain = dir.resolve("db-" + System.nanoTime() + ".yaml");
    Files.writeString(plain, plaintext);
    try {
      return new String(Tool.ok(dir, Map.of(), new byte[0], List.of(tools.sops().toString(), "encrypt", "--age",
          recipients, "--encrypted-regex", "^(data|stringData)$", plain.toString())), StandardCharsets.UTF_8);
    } finally {
      Files.delete(plain);
    }
  }

  /** One base64 character of the MAC's ciphertext changed. */
  private static String flipMacByte(String encrypted) {
    int at = encrypted.indexOf("mac: ENC[AES256_GCM,data:") + "mac: ENC[AES256_GCM,data:".length();
    char flipped = encrypted.charAt(at) == 'A' ? 'B' : 'A';
    return encrypted.substring(0, at) + flipped + encrypted.substring(at + 1);
  }

  private static String hello(String version) {
    return function("hello", NODEJS22, version).secretMount("db", "/db")
        .metadataAnnotation(Annotations.BUILD_MODE, "buildless").toYaml();
  }

  /** The digest on the Pod template of hello's Deployment, null while it has none. */
  private static String podTemplateDigest(KubernetesClient client, String namespace) {
    Deployment deployment = client.apps().deployments().inNamespace(namespace).withName("hello").get();
    return deployment == null || deployment.getSpec().getTemplate().getMetadata().getAnnotations() == null ? null
        : deployment.getSpec().getTemplate().getMetadata().getAnnotations().get(Annotations.SECRETS_DIGEST);
  }

  /** One base64 character of the password's ciphertext changed, as an attacker with push rights could. */
  private static String flipValueByte(String encrypted) {
    int at = encrypted.indexOf("password: ENC[AES256_GCM,data:") + "password: ENC[AES256_GCM,data:".length();
    char flipped = encrypted.charAt(at) == 'A' ? 'B' : 'A';
    return encrypted.substring(0, at) + flipped + encrypted.substring(at + 1);
  }

  private static AgeKey identity(String name) {
    return tools.newIdentity(dir.resolve(name + "-" + System.nanoTime() + ".agekey"));
  }

  /** The Secret {@code age} holds exactly this identity, as a file age-keygen wrote (comments included). */
  private static void identities(KubernetesClient client, String namespace, AgeKey identity) throws IOException {
    Secret secret = new SecretBuilder().withNewMetadata().withName("age").endMetadata()
        .withStringData(Map.of("identity.agekey", Files.readString(identity.file()))).build();
    client.secrets().inNamespace(namespace).resource(secret).createOr(NonDeletingOperation::update);
  }

  private static String password(KubernetesClient client, String namespace) {
    Secret secret = client.secrets().inNamespace(namespace).withName("db").get();
    return secret == null ? null
        : new String(Base64.getDecoder().decode(secret.getData().get("password")), StandardCharsets.UTF_8);
  }

  private static List<AppliedSecret> appliedSecrets(KubernetesClient client, String namespace) {
    return repository(client, namespace, "infra").getStatus().getSecrets();
  }

  private static Function fn(KubernetesClient client, String namespace, String name) {
    return client.resources(Function.class).inNamespace(namespace).withName(name).get();
  }

  private static String digest(KubernetesClient client, String namespace, String name) {
    Function fn = fn(client, namespace, name);
    return fn == null || fn.getMetadata().getAnnotations() == null ? null
        : fn.getMetadata().getAnnotations().get(Annotations.SECRETS_DIGEST);
  }

  private static String base64(String text) {
    return Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.UTF_8));
  }
}
