package io.gitfn.reconcile;

import static io.gitfn.api.function.FunctionRuntime.NODEJS22;
import static io.gitfn.reconcile.Repositories.function;
import static io.gitfn.reconcile.Repositories.gitSecret;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.gitfn.api.Conditions;
import io.gitfn.api.function.Function;
import io.gitfn.api.repository.FunctionRepository;
import io.gitfn.api.repository.FunctionRepositoryStatus;
import io.gitfn.testbed.KubeTestBed;
import io.gitfn.testbed.TestNamespace;
import io.gitfn.testbed.WithKubeApi;
import io.gitfn.testbed.git.BareRepository;
import io.gitfn.testbed.git.GitClient;
import io.gitfn.testbed.git.GitHttpServer;
import io.gitfn.testbed.git.GitServers;
import io.gitfn.testbed.git.WorkingCopy;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * What a repository's status does not say has not happened: while the API server refuses to record that repository
 * {@code a} is Ready, no repository that depends on it applies anything, and its notification endpoint hears no
 * {@code success}. Once the API server takes the write, {@code a} turns Ready and its dependent applies, with no
 * help from outside.
 *
 * <p>A ValidatingAdmissionPolicy denies every UPDATE of {@code functionrepositories/status} that would show
 * {@code a} with Ready=True. {@code a} applies an empty folder ({@code allowEmpty}), so with an API server alone it
 * reaches Ready=True at its first revision; {@code b} depends on it and declares a Function. The API server's own
 * count of the policy's denials shows that the controller did try to write {@code a}'s Ready=True before the window
 * in which nothing may happen.
 */
@WithKubeApi
@ExtendWith(GitServers.class)
class DeniedStatusWriteIT {

  private static final Duration WAIT = Duration.ofSeconds(60);
  private static final Duration WINDOW = Duration.ofSeconds(20);
  private static final String TOKEN = "hook-secret";
  private static final KubernetesSerialization YAML = new KubernetesSerialization();

  @Test
  void aReadinessTheApiServerRefusedWakesNoDependentAndIsNotAnnounced(KubeTestBed bed, KubernetesClient client,
      TestNamespace ns, GitHttpServer http, BareRepository repository, GitClient git) throws Exception {
    bed.installCrds();
    WorkingCopy copy = git.clone(http.url(repository.name()));
    copy.write("platform/README.md", "Nothing to run yet.\n")
        .write("apps/shop.yaml", function("shop", NODEJS22, "v1").toYaml()).commit("platform and apps");
    copy.push();
    gitSecret(client, ns.name(), http);
    client.secrets().inNamespace(ns.name()).resource(new SecretBuilder().withNewMetadata().withName("hook")
        .endMetadata().addToStringData("token", TOKEN).build()).create();
    String policy = ns.name() + "-a-never-ready";

    try (Notifications notifications = Notifications.start();
        Recorded recorded = Recorded.watch(client, ns)) {
      create(client, ns, "a", "{url: '" + http.url(repository.name()) + "', ref: {branch: main}, path: platform,"
          + " interval: 1h, secretRef: {name: git}, allowEmpty: true, notification: {url: '" + notifications.url()
          + "', secretRef: {name: hook}}}");
      create(client, ns, "b", "{url: '" + http.url(repository.name()) + "', ref: {branch: main}, path: apps,"
          + " interval: 1h, secretRef: {name: git}, dependsOn: [{name: a}]}");
      denyReadyOfA(client, ns, policy);
      try {
        // The API server enforces a policy a moment after it is created: probe until it does.
        await().atMost(WAIT).untilAsserted(() -> assertThat(probeReadyOfA(client, ns))
            .as("a dry-run write of a's status with Ready=True").contains("may not show Ready=True"));
        double deniedBefore = denials(client, policy);

        try (ControllerUnderTest running = ControllerUnderTest.start(bed, "denied-status",
            ControllerSettings.defaults())) {
          await().atMost(WAIT).untilAsserted(() -> assertThat(denials(client, policy))
              .as("status writes of a with Ready=True that the API server denied").isGreaterThan(deniedBefore));
          // b read its revision and made its dependency check.
          await().atMost(WAIT).untilAsserted(() -> assertThat(ready(client, ns, "b"))
              .as("b's Ready").hasValueSatisfying(c -> assertThat(c.getReason()).isNotEqualTo("SourceNotReady")));

          await().during(WINDOW).atMost(WINDOW.plusSeconds(5)).untilAsserted(() -> {
            SoftAssertions softly = new SoftAssertions();
            softly.assertThat(recorded.readyOfA()).as("every Ready of a the API server recorded")
                .noneMatch(c -> c.startsWith("True"));
            softly.assertThat(recorded.functions()).as("Functions created in %s while a is not Ready", ns.name())
                .isEmpty();
            softly.assertThat(notifications.states("a")).as("states of a its notification endpoint received")
                .doesNotContain("success");
            softly.assertThat(ready(client, ns, "b")).as("b's Ready while a is not Ready")
                .hasValueSatisfying(c -> assertThat(c.getReason() + ": " + c.getMessage())
                    .as("b's Ready reason and message while a is not Ready")
                    .startsWith("DependencyNotReady: ").contains(ns.name() + "/a"));
            softly.assertAll();
          });

          // The same controller, untouched, gets a's status written once the API server takes it.
          client.resource(binding(policy)).delete();
          await().atMost(Duration.ofMinutes(2)).untilAsserted(() -> {
            assertThat(ready(client, ns, "a")).as("a's Ready once the API server takes it")
                .hasValueSatisfying(c -> assertThat(c.getStatus()).isEqualTo("True"));
            assertThat(recorded.functions()).as("Functions b applied once a is Ready").containsExactly("shop");
            assertThat(notifications.states("a")).as("states of a its notification endpoint received")
                .contains("success");
          });
        }
      } finally {
        client.resource(binding(policy)).delete();
        client.resource(policy(policy, ns)).delete();
      }
    }
  }

  private static void create(KubernetesClient client, TestNamespace ns, String name, String spec) {
    client.resource(client.getKubernetesSerialization().unmarshal("---\n{apiVersion: gitfn.io/v1alpha1, kind:"
        + " FunctionRepository, metadata: {name: " + name + ", namespace: " + ns.name() + "}, spec: " + spec + "}",
        FunctionRepository.class)).create();
  }

  /** A policy, bound in this test's namespace only, that refuses to record {@code a} as Ready. */
  private static void denyReadyOfA(KubernetesClient client, TestNamespace ns, String name) {
    client.resource(policy(name, ns)).create();
    client.resource(binding(name)).create();
  }

  private static HasMetadata policy(String name, TestNamespace ns) {
    return YAML.unmarshal("""
        apiVersion: admissionregistration.k8s.io/v1
        kind: ValidatingAdmissionPolicy
        metadata: {name: %s}
        spec:
          failurePolicy: Fail
          matchConstraints:
            namespaceSelector: {matchLabels: {kubernetes.io/metadata.name: %s}}
            resourceRules:
            - apiGroups: [gitfn.io]
              apiVersions: ["*"]
              operations: [UPDATE]
              resources: [functionrepositories/status]
          matchConditions:
          - name: repository-a
            expression: "object.metadata.name == 'a'"
          validations:
          - expression: >-
              !(has(object.status) && has(object.status.conditions)
              && object.status.conditions.exists(c, c.type == 'Ready' && c.status == 'True'))
            message: "this test's policy: repository a may not show Ready=True"
        """.formatted(name, ns.name()), HasMetadata.class);
  }

  private static HasMetadata binding(String name) {
    return YAML.unmarshal("""
        apiVersion: admissionregistration.k8s.io/v1
        kind: ValidatingAdmissionPolicyBinding
        metadata: {name: %s}
        spec:
          policyName: %s
          validationActions: [Deny]
        """.formatted(name, name), HasMetadata.class);
  }

  /** The API server's answer to a dry-run status write that shows {@code a} Ready: empty when it was taken. */
  private static String probeReadyOfA(KubernetesClient client, TestNamespace ns) {
    FunctionRepository a = client.resources(FunctionRepository.class).inNamespace(ns.name()).withName("a").get();
    FunctionRepositoryStatus status = a.getStatus() == null ? new FunctionRepositoryStatus() : a.getStatus();
    status.setConditions(List.of(new ConditionBuilder().withType("Ready").withStatus("True").withReason("Probe")
        .withMessage("a probe of the test's policy").withLastTransitionTime(Instant.now().toString().replaceAll(
            "\\.\\d+Z$", "Z")).withObservedGeneration(a.getMetadata().getGeneration()).build()));
    a.setStatus(status);
    try {
      client.resources(FunctionRepository.class).inNamespace(ns.name()).resource(a).dryRun().updateStatus();
      return "";
    } catch (KubernetesClientException e) {
      return e.getMessage();
    }
  }

  /** How often the API server has denied a request under {@code policy}, from its own metrics. */
  private static double denials(KubernetesClient client, String policy) {
    String metrics = client.raw(client.getMasterUrl().toString().replaceAll("/$", "") + "/metrics");
    return metrics.lines().filter(l -> l.startsWith("apiserver_validating_admission_policy_check_total{")
        && l.contains("policy=\"" + policy + "\"") && l.contains("enforcement_action=\"deny\""))
        .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1))).sum();
  }

  private static Optional<Condition> ready(KubernetesClient client, TestNamespace ns, String name) {
    FunctionRepository repository = client.resources(FunctionRepository.class).inNamespace(ns.name()).withName(name)
        .get();
    return repository == null || repository.getStatus() == null ? Optional.empty()
        : Conditions.find(repository.getStatus().getConditions(), "Ready");
  }

  /** Every Ready of {@code a} and every Function in the namespace that the API server recorded, from watches. */
  private static final class Recorded implements AutoCloseable {
    private final List<String> readyOfA = new CopyOnWriteArrayList<>();
    private final List<String> functions = new CopyOnWriteArrayList<>();
    private Watch repositories;
    private Watch functionWatch;

    static Recorded watch(KubernetesClient client, TestNamespace ns) {
      Recorded recorded = new Recorded();
      recorded.repositories = client.resources(FunctionRepository.class).inNamespace(ns.name())
          .watch(new Watcher<>() {
            @Override
            public void eventReceived(Action action, FunctionRepository repository) {
              if (repository.getMetadata().getName().equals("a") && repository.getStatus() != null) {
                Conditions.find(repository.getStatus().getConditions(), "Ready").ifPresent(c ->
                    recorded.readyOfA.add(c.getStatus() + " " + c.getReason() + ": " + c.getMessage()));
              }
            }

            @Override
            public void onClose(WatcherException cause) {
            }
          });
      recorded.functionWatch = client.resources(Function.class).inNamespace(ns.name()).watch(new Watcher<>() {
        @Override
        public void eventReceived(Action action, Function fn) {
          if (!recorded.functions.contains(fn.getMetadata().getName())) {
            recorded.functions.add(fn.getMetadata().getName());
          }
        }

        @Override
        public void onClose(WatcherException cause) {
        }
      });
      return recorded;
    }

    List<String> readyOfA() {
      return List.copyOf(readyOfA);
    }

    List<String> functions() {
      return List.copyOf(functions);
    }

    @Override
    public void close() {
      repositories.close();
      functionWatch.close();
    }
  }

  /** A generic notification endpoint that keeps what it was sent (its shape only; signatures are not checked). */
  private static final class Notifications implements AutoCloseable {
    private final HttpServer server;
    private final List<JsonNode> received = new CopyOnWriteArrayList<>();

    private Notifications(HttpServer server) {
      this.server = server;
    }

    static Notifications start() throws Exception {
      HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
      Notifications notifications = new Notifications(server);
      server.createContext("/hooks/gitfn", exchange -> {
        notifications.received.add(new ObjectMapper().readTree(exchange.getRequestBody().readNBytes(64 * 1024)));
        exchange.sendResponseHeaders(204, -1);
        exchange.close();
      });
      server.start();
      return notifications;
    }

    String url() {
      return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/hooks/gitfn").toString();
    }

    /** The states sent about the repository {@code name}, in the order they came. */
    List<String> states(String name) {
      return received.stream().filter(n -> name.equals(n.path("name").asText()))
          .map(n -> n.path("state").asText()).toList();
    }

    @Override
    public void close() {
      server.stop(0);
    }
  }
}
