package io.gitfn.reconcile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.gitfn.api.function.AuthType;
import io.gitfn.api.function.Function;
import io.gitfn.api.function.TestFunction;
import io.gitfn.testbed.TestNamespace;
import io.gitfn.testbed.git.BareRepository;
import io.gitfn.testbed.git.GitHttpServer;
import io.gitfn.workload.DesiredDeployment;
import java.time.Duration;

/**
 * The Git-sourced Function {@code hello} of the Git-sourced Function ITs: the folder {@code functions/hello} of a
 * repository on the test Git server, on {@code main}, read with the Secret {@code git}; and what it runs.
 */
final class GitFunctions {

  static final Duration WAIT = Duration.ofSeconds(60);
  static final String V1 = "module.exports = { main: () => 'v1' };\n";
  static final String V2 = "module.exports = { main: () => 'v2' };\n";

  private GitFunctions() {}

  /** hello, to be given more before it is built. */
  static TestFunction hello(TestNamespace ns, GitHttpServer http, BareRepository repository) {
    return TestFunction.fromGit(http.url(repository.name()), "main", "functions/hello").named("hello")
        .inNamespace(ns.name()).uid(null).gitAuth(AuthType.BASIC, "git");
  }

  /** Waits until the Function runs what it resolved at this revision, and returns it. */
  static Function awaitReady(KubernetesClient client, TestNamespace ns, String revision) {
    await().atMost(WAIT).untilAsserted(() -> {
      Function fn = get(client, ns);
      assertThat(fn.getStatus()).isNotNull();
      assertThat(fn.getStatus().getSourceRevision()).isEqualTo(revision);
      assertThat(fn.getStatus().getConditions()).allSatisfy(c -> assertThat(c.getStatus())
          .as(c.getType() + ": " + c.getMessage()).isEqualTo("True")).hasSize(3);
      assertThat(image(deployment(client, ns))).isEqualTo(fn.getStatus().getImage());
    });
    return get(client, ns);
  }

  static Condition condition(Function fn, String type) {
    assertThat(fn.getStatus()).isNotNull();
    return fn.getStatus().getConditions().stream().filter(c -> c.getType().equals(type)).findFirst()
        .orElseThrow(() -> new AssertionError("no condition " + type));
  }

  static Function get(KubernetesClient client, TestNamespace ns) {
    return client.resources(Function.class).inNamespace(ns.name()).withName("hello").get();
  }

  static Deployment deployment(KubernetesClient client, TestNamespace ns) {
    Deployment deployment = client.apps().deployments().inNamespace(ns.name()).withName("hello").get();
    assertThat(deployment).as("Deployment hello").isNotNull();
    return deployment;
  }

  /** The image of the Function's container in {@code deployment}. */
  static String image(Deployment deployment) {
    return deployment.getSpec().getTemplate().getSpec().getContainers().stream()
        .filter(c -> c.getName().equals(DesiredDeployment.CONTAINER)).findFirst().map(Container::getImage).orElse(null);
  }
}
