package io.gitfn.bench;

import static io.gitfn.bench.ControllerBenchmark.percentile;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.gitfn.api.function.Function;
import io.gitfn.api.repository.FunctionRepository;
import io.gitfn.testbed.GiteaServer;
import io.gitfn.testbed.git.GitClient;
import io.gitfn.testbed.git.WorkingCopy;
import io.gitfn.testbed.realnode.NodeGitfn;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;
import java.util.function.ToDoubleFunction;

/**
 * What the real-node benchmark's changes share: the infra repository in Gitea that a FunctionRepository follows,
 * waiting for an answer on a new connection, waiting until a rollout has settled, and timing one change's steps.
 */
final class RealNodeChanges {

  static final Duration BUILD_AND_ROLL_OUT = Duration.ofMinutes(6);
  static final String NAMESPACE = "bench";
  /** The label gitfn and Kyma both put on a Function's Deployment and Pods. */
  static final String FUNCTION_LABEL = "serverless.kyma-project.io/function-name";

  private RealNodeChanges() {
  }

  static WorkingCopy infraRepository(KubernetesClient client, GiteaServer gitea, NodeGitfn gitfn, Path home)
      throws Exception {
    String cloneUrl = gitea.createRepository("infra");
    WorkingCopy copy = GitClient.create(home, gitea.admin(), null).clone(cloneUrl);
    client.secrets().inNamespace(NAMESPACE).resource(gitea.basicAuthSecret("git")).create();
    client.secrets().inNamespace(NAMESPACE).resource(new SecretBuilder().withNewMetadata().withName("hook")
        .endMetadata().withStringData(Map.of("token", "bench-hook")).build()).create();
    client.resource(client.getKubernetesSerialization().unmarshal(
        "---\n{apiVersion: gitfn.io/v1alpha1, kind: FunctionRepository, metadata: {name: infra, namespace: " + NAMESPACE
            + "}, spec: {url: '" + cloneUrl + "', ref: {branch: main}, path: functions, interval: 1h,"
            + " secretRef: {name: git}, webhook: {secretRef: {name: hook}}}}",
        FunctionRepository.class)).create();
    gitea.addWebhook("infra", gitfn.webhookUri().resolve("gitea"), "bench-hook");
    return copy;
  }

  /**
   * Waits until {@code name}'s Service answers {@code expected} on a new connection, as every row measures it: a
   * kept-alive connection would stay on the old Pod through its preStop pause and drain.
   */
  static void awaitAnswer(KubernetesClient client, String name, String expected) throws Exception {
    awaitAnswer(client, NAMESPACE, name, expected);
  }

  /** The same in {@code namespace}; fails at once when the controller refused the Function's spec. */
  static void awaitAnswer(KubernetesClient client, String namespace, String name, String expected) throws Exception {
    long deadline = System.nanoTime() + BUILD_AND_ROLL_OUT.toNanos();
    while (System.nanoTime() < deadline) {
      URI service = serviceUri(client, namespace, name);
      if (service != null && expected.equals(NewConnection.get(service))) {
        return;
      }
      refused(client, namespace, name);
      Thread.sleep(500);
    }
    throw new IllegalStateException(name + " in " + namespace + " did not answer `" + expected + "` within "
        + BUILD_AND_ROLL_OUT + "; its status: " + status(client, namespace, name));
  }

  /** Fails when the controller refused the Function's spec, which no wait mends. */
  static void refused(KubernetesClient client, String namespace, String name) {
    Function fn = client.resources(Function.class).inNamespace(namespace).withName(name).get();
    if (fn != null && fn.getStatus() != null && fn.getStatus().getConditions() != null
        && fn.getStatus().getConditions().stream().anyMatch(c -> "ConfigurationReady".equals(c.getType())
            && "False".equals(c.getStatus()) && "InvalidFunctionSpec".equals(c.getReason()))) {
      throw new IllegalStateException(name + " in " + namespace + " was refused: " + status(client, namespace, name));
    }
  }

  /** The Function's status as JSON, for a failure's message. */
  static String status(KubernetesClient client, String namespace, String name) {
    Function fn = client.resources(Function.class).inNamespace(namespace).withName(name).get();
    return fn == null ? "no Function" : client.getKubernetesSerialization().asJson(fn.getStatus());
  }

  /** Where a new connection reaches {@code name}'s Service, or null while it has none. */
  static URI serviceUri(KubernetesClient client, String namespace, String name) {
    var service = client.services().inNamespace(namespace).withName(name).get();
    return service == null ? null : URI.create("http://" + service.getSpec().getClusterIP() + "/");
  }

  /** {@link #settle(KubernetesClient, String, String, String)} for hello in {@link #NAMESPACE}. */
  static void settle(KubernetesClient client, String expected) throws Exception {
    settle(client, NAMESPACE, "hello", expected);
  }

  /**
   * Waits until the change has finished rolling out: the Function's Deployment has all its Pods of its current
   * template, none is still terminating, and new connections get {@code expected} every time. The first answer of a
   * new version comes while the old Pod still serves, so the next change must not start before this, or it would be
   * timed against the Pod of the version before. The Deployment is found by the Function's label: Kyma names it
   * {@code <function>-<random>}.
   */
  static void settle(KubernetesClient client, String namespace, String name, String expected) throws Exception {
    long deadline = System.nanoTime() + BUILD_AND_ROLL_OUT.toNanos();
    URI service = serviceUri(client, namespace, name);
    int inARow = 0;
    while (inARow < 10) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(name + " in " + namespace + " did not settle on `" + expected + "` within "
            + BUILD_AND_ROLL_OUT);
      }
      List<Deployment> deployments = client.apps().deployments().inNamespace(namespace)
          .withLabel(FUNCTION_LABEL, name).list().getItems();
      boolean rolledOut = deployments.size() == 1 && rolledOut(deployments.get(0))
          && client.pods().inNamespace(namespace).withLabel(FUNCTION_LABEL, name).list().getItems().stream()
              .noneMatch(p -> p.getMetadata().getDeletionTimestamp() != null);
      inARow = rolledOut && expected.equals(NewConnection.get(service)) ? inARow + 1 : 0;
      Thread.sleep(100);
    }
  }

  private static boolean rolledOut(Deployment deployment) {
    var status = deployment.getStatus();
    return status != null && Objects.equals(status.getObservedGeneration(), deployment.getMetadata().getGeneration())
        && Objects.equals(status.getUpdatedReplicas(), deployment.getSpec().getReplicas())
        && Objects.equals(status.getReplicas(), deployment.getSpec().getReplicas());
  }

  /** The steps of one change, from the push (started by {@code push}) until {@code done}; printed as it ends. */
  static ChangeTimeline.Steps timed(ChangeTimeline timeline, String change, Pusher push,
      Supplier<Boolean> done) throws Exception {
    long started = System.nanoTime();
    push.push();
    long deadline = started + BUILD_AND_ROLL_OUT.toNanos();
    while (!done.get()) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(change + " did not answer within " + BUILD_AND_ROLL_OUT);
      }
      Thread.sleep(20);
    }
    ChangeTimeline.Steps steps = timeline.of(started, System.nanoTime());
    System.out.println("  " + change + ": " + (long) steps.millis(steps.pushed(), steps.answering()) + " ms ("
        + ChangeTimeline.describe(steps) + ")");
    return steps;
  }

  interface Pusher {
    void push() throws Exception;
  }

  static double slowest(List<ChangeTimeline.Steps> changes) {
    return changes.stream().mapToDouble(s -> s.millis(s.pushed(), s.answering())).max().orElse(Double.NaN);
  }

  static double p50(List<ChangeTimeline.Steps> changes, ToDoubleFunction<ChangeTimeline.Steps> step) {
    return percentile(changes.stream().mapToDouble(step).filter(v -> !Double.isNaN(v)).toArray(), 50);
  }
}
