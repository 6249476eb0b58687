package io.gitfn.bench;

import static io.gitfn.bench.ControllerBenchmark.percentile;
import io.fabric8.kubernetes.api.model.SecretBuilder;
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
    long deadline = System.nanoTime() + BUILD_AND_ROLL_OUT.toNanos();
    while (System.nanoTime() < deadline) {
      var service = client.services().inNamespace(NAMESPACE).withName(name).get();
      if (service != null && expected.equals(NewConnection.get(URI.create("http://" + service.getSpec().getClusterIP() + "/")))) {
        return;
      }
      Thread.sleep(500);
    }
    Function fn = client.resources(Function.class).inNamespace(NAMESPACE).withName(name).get();
    throw new IllegalStateException(name + " did not answer `" + expected + "` within " + BUILD_AND_ROLL_OUT
        + "; its status: " + (fn == null ? "no Function" : client.getKubernetesSerialization().asJson(fn.getStatus())));
  }

  /**
   * Waits until the change has finished rolling out: the Deployment's Pods are all of its current template, none is
   * still terminating, and new connections get {@code expected} every time. The first answer of a new version comes
   * while the old Pod still serves, so the next change must not start before this, or it would be timed against
   * the Pod of the version before.
   */
  static void settle(KubernetesClient client, String expected) throws Exception {
    long deadline = System.nanoTime() + BUILD_AND_ROLL_OUT.toNanos();
    URI service = URI.create("http://" + client.services().inNamespace(NAMESPACE).withName("hello").get().getSpec()
        .getClusterIP() + "/");
    int inARow = 0;
    while (inARow < 10) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("hello did not settle on `" + expected + "` within " + BUILD_AND_ROLL_OUT);
      }
      var deployment = client.apps().deployments().inNamespace(NAMESPACE).withName("hello").get();
      var status = deployment.getStatus();
      boolean rolledOut = status != null && Objects.equals(status.getObservedGeneration(),
          deployment.getMetadata().getGeneration())
          && Objects.equals(status.getUpdatedReplicas(), deployment.getSpec().getReplicas())
          && Objects.equals(status.getReplicas(), deployment.getSpec().getReplicas())
          && client.pods().inNamespace(NAMESPACE).withLabels(deployment.getSpec().getSelector().getMatchLabels())
              .list().getItems().stream().noneMatch(p -> p.getMetadata().getDeletionTimestamp() != null);
      inARow = rolledOut && expected.equals(NewConnection.get(service)) ? inARow + 1 : 0;
      Thread.sleep(100);
    }
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
