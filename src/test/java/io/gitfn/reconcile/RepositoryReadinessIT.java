package io.gitfn.reconcile;

import static io.gitfn.api.function.FunctionRuntime.NODEJS22;
import static io.gitfn.reconcile.Repositories.function;
import static io.gitfn.reconcile.Repositories.gitSecret;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.gitfn.api.Conditions;
import io.gitfn.api.function.Function;
import io.gitfn.api.repository.FunctionRepository;
import io.gitfn.cli.Main;
import io.gitfn.testbed.KubeTestBed;
import io.gitfn.testbed.KwokBuildStages;
import io.gitfn.testbed.KwokLayeredBuilds;
import io.gitfn.testbed.TestNamespace;
import io.gitfn.testbed.WithKubeCluster;
import io.gitfn.testbed.git.BareRepository;
import io.gitfn.testbed.git.GitClient;
import io.gitfn.testbed.git.GitHttpServer;
import io.gitfn.testbed.git.GitServers;
import io.gitfn.testbed.git.WorkingCopy;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import picocli.CommandLine;

/**
 * A FunctionRepository is Ready when its revision runs on the cluster, not when it is applied: each build takes
 * three seconds here, the controller-manager rolls the Deployments and kwok makes their Pods Ready. Until then its
 * status names the Functions still on their way, and {@code gitfn reconcile --wait} follows them.
 */
@WithKubeCluster
@ExtendWith(GitServers.class)
class RepositoryReadinessIT {

  private static final Duration WAIT = Duration.ofSeconds(90);
  private static ControllerUnderTest running;
  private static Path kubeconfig;

  @BeforeAll
  static void startController(KubeTestBed bed) throws Exception {
    kubeconfig = bed.kubeconfig();
    running = ControllerUnderTest.start(bed, "readiness", ControllerSettings.defaults(),
        bed.layeredBuilds().settings().withPodAnnotations(KwokBuildStages.buildDuration(Duration.ofSeconds(3))));
  }

  @AfterAll
  static void stopController() throws Exception {
    running.close();
  }

  @Test
  void readyWaitsForEveryFunctionToRunTheRevisionAndWaitShowsThemOnTheirWay(KubernetesClient client,
      TestNamespace ns, GitHttpServer http, BareRepository repository, GitClient git) throws Exception {
    WorkingCopy copy = git.clone(http.url(repository.name()));
    String commit = copy.write("functions/hello.yaml", function("hello", NODEJS22, "v1").toYaml())
        .write("functions/bye.yaml", function("bye", NODEJS22, "v1").toYaml()).commit("two functions");
    copy.push();
    gitSecret(client, ns.name(), http);
    create(client, ns, "infra", http.url(repository.name()), "functions", null);

    Run wait = gitfn("reconcile", "repository", "infra", "-n", ns.name(), "--wait", "--timeout", "90s");

    assertThat(wait.exitCode()).as(wait.out() + wait.err()).isZero();
    List<String> lines = wait.out().lines().toList();
    assertThat(lines.get(0)).isEqualTo("► annotating FunctionRepository " + ns.name() + "/infra");
    assertThat(lines).as("a line for each Function on its way").anyMatch(l -> l.startsWith("  hello: "))
        .anyMatch(l -> l.startsWith("  bye: "));
    assertThat(lines.get(lines.size() - 1))
        .isEqualTo("✔ revision main@sha1:" + commit + " runs: 2 Functions ready");

    FunctionRepository infra = repository(client, ns, "infra");
    assertThat(infra.getStatus().getPending()).isNull();
    assertThat(ready(infra)).hasValueSatisfying(c -> assertThat(c.getReason()).isEqualTo("Succeeded"));
    for (String name : List.of("hello", "bye")) {
      Function fn = client.resources(Function.class).inNamespace(ns.name()).withName(name).get();
      assertThat(fn.getStatus().getConditions()).as(name).allSatisfy(c -> assertThat(c.getStatus()).isEqualTo("True"));
    }
  }

  @Test
  void aFailedBuildLeavesTheRepositoryNotReadyAndNamesTheFunction(KubernetesClient client, TestNamespace ns,
      GitHttpServer http, BareRepository repository, GitClient git) throws Exception {
    WorkingCopy copy = git.clone(http.url(repository.name()));
    String commit = copy.write("functions/hello.yaml", function("hello", NODEJS22, "v1").toYaml())
        .write("functions/broken.yaml", function("broken", NODEJS22, "v1")
            .dependencies(KwokLayeredBuilds.MISSING_DEPENDENCIES).toYaml())
        .commit("one that cannot build");
    copy.push();
    gitSecret(client, ns.name(), http);
    create(client, ns, "infra", http.url(repository.name()), "functions", null);

    await().atMost(WAIT).untilAsserted(() -> assertThat(ready(repository(client, ns, "infra")))
        .hasValueSatisfying(c -> {
          assertThat(c.getStatus()).isEqualTo("False");
          assertThat(c.getReason()).isEqualTo("FunctionsFailed");
          assertThat(c.getMessage()).startsWith("revision main@sha1:" + commit
              + " is applied, but 1 of 2 Functions failed: broken: Job gitfn-");
        }));
    FunctionRepository infra = repository(client, ns, "infra");
    assertThat(infra.getStatus().getPending()).singleElement().satisfies(p -> {
      assertThat(p.getName()).isEqualTo("broken");
      assertThat(p.getPhase()).isEqualTo("Failed");
      assertThat(p.getReason()).isEqualTo("JobFailed");
    });
    assertThat(Conditions.find(infra.getStatus().getConditions(), "Stalled")).as("a push can fix it").isEmpty();

    Run untilRunning = gitfn("reconcile", "repository", "infra", "-n", ns.name(), "--wait", "--timeout", "60s");
    assertThat(untilRunning.exitCode()).as(untilRunning.out()).isEqualTo(1);
    assertThat(untilRunning.out()).contains("✗ revision main@sha1:" + commit + " is applied, but 1 of 2 Functions"
        + " failed: broken: Job gitfn-");

    Run untilApplied = gitfn("reconcile", "repository", "infra", "-n", ns.name(), "--wait=applied", "--timeout",
        "60s");
    assertThat(untilApplied.exitCode()).as(untilApplied.out()).isZero();
    assertThat(untilApplied.out()).endsWith("✔ applied revision main@sha1:" + commit + "\n");
  }

  @Test
  void aRepositoryAppliesNothingUntilTheRepositoriesItDependsOnRun(KubernetesClient client, TestNamespace ns,
      GitHttpServer http, BareRepository repository, GitClient git) throws Exception {
    WorkingCopy copy = git.clone(http.url(repository.name()));
    copy.write("platform/auth.yaml", function("auth", NODEJS22, "v1").toYaml())
        .write("apps/shop.yaml", function("shop", NODEJS22, "v1").toYaml()).commit("platform and apps");
    copy.push();
    gitSecret(client, ns.name(), http);
    create(client, ns, "apps", http.url(repository.name()), "apps", "platform");

    await().atMost(WAIT).untilAsserted(() -> assertThat(ready(repository(client, ns, "apps")))
        .hasValueSatisfying(c -> {
          assertThat(c.getReason()).isEqualTo("DependencyNotReady");
          assertThat(c.getMessage()).contains(ns.name() + "/platform does not exist");
        }));

    create(client, ns, "platform", http.url(repository.name()), "platform", null);

    await().atMost(WAIT).untilAsserted(() -> assertThat(ready(repository(client, ns, "apps")))
        .hasValueSatisfying(c -> assertThat(c.getStatus()).isEqualTo("True")));
    Instant platformRan = Instant.parse(ready(repository(client, ns, "platform")).orElseThrow().getLastTransitionTime());
    Instant shopCreated = Instant.parse(client.resources(Function.class).inNamespace(ns.name()).withName("shop").get()
        .getMetadata().getCreationTimestamp());
    assertThat(shopCreated).as("apps applied its Function only once platform ran").isAfterOrEqualTo(platformRan.truncatedTo(ChronoUnit.SECONDS));
  }

  private static void create(KubernetesClient client, TestNamespace ns, String name, String url, String path,
      String dependsOn) {
    client.resource(client.getKubernetesSerialization().unmarshal(
        "---\n{apiVersion: gitfn.io/v1alpha1, kind: FunctionRepository, metadata: {name: " + name + ", namespace: "
            + ns.name() + "}, spec: {url: '" + url + "', ref: {branch: main}, path: " + path + ", interval: 1h,"
            + " secretRef: {name: git}" + (dependsOn == null ? "" : ", dependsOn: [{name: " + dependsOn + "}]") + "}}",
        FunctionRepository.class)).create();
  }

  private static FunctionRepository repository(KubernetesClient client, TestNamespace ns, String name) {
    return client.resources(FunctionRepository.class).inNamespace(ns.name()).withName(name).get();
  }

  private static Optional<Condition> ready(FunctionRepository repository) {
    return repository == null || repository.getStatus() == null ? Optional.empty()
        : Conditions.find(repository.getStatus().getConditions(), "Ready");
  }

  record Run(int exitCode, String out, String err) {}

  private static Run gitfn(String... arguments) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine command = new CommandLine(new Main());
    command.setOut(new PrintWriter(out));
    command.setErr(new PrintWriter(err));
    List<String> all = new ArrayList<>(List.of(arguments));
    all.add("--kubeconfig");
    all.add(kubeconfig.toString());
    return new Run(command.execute(all.toArray(String[]::new)), out.toString(), err.toString());
  }
}
