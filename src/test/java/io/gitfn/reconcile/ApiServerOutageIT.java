package io.gitfn.reconcile;

import static io.gitfn.api.function.FunctionRuntime.NODEJS22;
import static io.gitfn.reconcile.Repositories.create;
import static io.gitfn.reconcile.Repositories.function;
import static io.gitfn.reconcile.Repositories.gitSecret;
import static io.gitfn.reconcile.Repositories.requestReconcile;
import static io.gitfn.reconcile.Repositories.version;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.gitfn.api.function.Function;
import io.gitfn.api.repository.FunctionRepository;
import io.gitfn.build.BuildSettings;
import io.gitfn.controller.Controller;
import io.gitfn.source.SourceSettings;
import io.gitfn.testbed.ControlPlane;
import io.gitfn.testbed.KubeTestBed;
import io.gitfn.testbed.TestBedBinaries;
import io.gitfn.testbed.git.BareRepository;
import io.gitfn.testbed.git.GitClient;
import io.gitfn.testbed.git.GitHttpServer;
import io.gitfn.testbed.git.GitServers;
import io.gitfn.testbed.git.WorkingCopy;
import io.gitfn.trigger.webhook.WebhookSettings;
import io.gitfn.workload.WorkloadSettings;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * kube-apiserver stops for 30 s under a running controller and starts again: the controller recovers without a
 * restart, prunes nothing, and reconciles what changed meanwhile. The control plane is this test's own (etcd and
 * an apiserver), since the shared test bed's serves every other test in the JVM.
 */
@ExtendWith(GitServers.class)
class ApiServerOutageIT {

  private static final Duration OUTAGE = Duration.ofSeconds(30);
  private static final Duration START = Duration.ofSeconds(60);
  private static final String NAMESPACE = "outage";

  @Test
  void theControllerRidesOutAThirtySecondOutageAndPrunesNothing(GitHttpServer http, BareRepository repository,
      GitClient git) throws Exception {
    TestBedBinaries binaries = TestBedBinaries.locate();
    Path target = Files.createDirectories(TestBedBinaries.projectDir().resolve("target/testbed"));
    try (ControlPlane plane = ControlPlane.start(binaries, Files.createTempDirectory(target, "apiserver-outage-"),
            START, new ControlPlane.Options("127.0.0.1", "10.96.0.0/16", List.of("--endpoint-reconciler-type=none")));
        KubernetesClient client = plane.newClient();
        KubernetesClient controllerClient = plane.newClient()) {
      KubeTestBed.installCrds(client);
      client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(NAMESPACE).endMetadata().build())
          .create();
      WorkingCopy copy = git.clone(http.url(repository.name()));
      copy.write("functions/hello.yaml", function("hello", NODEJS22, "v1").toYaml())
          .write("functions/bye.yaml", function("bye", NODEJS22, "v1").toYaml()).commit("two");
      copy.push();
      gitSecret(client, NAMESPACE, http);

      try (Controller controller = Controller.start(controllerClient,
          SourceSettings.defaults(Files.createTempDirectory("gitfn-outage-mirrors")), WebhookSettings.defaults(),
          ControllerSettings.defaults(), BuildSettings.defaults(),
          WorkloadSettings.defaults(), "127.0.0.1", 0)) {
        create(client, NAMESPACE, "infra", http.url(repository.name()), Map.of());
        await().atMost(START).untilAsserted(() -> assertThat(uids(client)).containsOnlyKeys("hello", "bye"));
        Map<String, String> before = uids(client);

        plane.stopApiServer();
        // Meanwhile, a commit changes one Function and leaves the other alone.
        copy.write("functions/hello.yaml", function("hello", NODEJS22, "v2").toYaml()).commit("v2");
        copy.push();
        TimeUnit.MILLISECONDS.sleep(OUTAGE.toMillis()); // the outage itself
        plane.restartApiServer(binaries, START);

        // The same objects, not deleted and made again, and a controller that says it is healthy.
        assertThat(uids(client)).isEqualTo(before);
        await().atMost(START).untilAsserted(() -> assertThat(status(controller, "healthz")).isEqualTo(200));
        await().atMost(START).untilAsserted(() -> assertThat(status(controller, "readyz")).isEqualTo(200));

        requestReconcile(client, NAMESPACE, "infra");
        await().atMost(Duration.ofMinutes(2)).untilAsserted(() -> {
          assertThat(version(client, NAMESPACE, "hello")).isEqualTo("v2");
          assertThat(client.resources(FunctionRepository.class).inNamespace(NAMESPACE).withName("infra").get()
              .getStatus().getLastAppliedRevision()).isEqualTo("main@sha1:" + copy.head());
        });
        assertThat(uids(client)).isEqualTo(before);
      }
    }
  }

  /** Each Function's UID, by name: a Function pruned and applied again would have a new one. */
  private static Map<String, String> uids(KubernetesClient client) {
    return client.resources(Function.class).inNamespace(NAMESPACE).list().getItems().stream()
        .collect(Collectors.toMap(f -> f.getMetadata().getName(), f -> f.getMetadata().getUid()));
  }

  private static int status(Controller controller, String path) throws Exception {
    try {
      return HttpClient.newHttpClient().send(HttpRequest.newBuilder(controller.operationsUri().resolve(path)).build(),
          HttpResponse.BodyHandlers.discarding()).statusCode();
    } catch (java.io.IOException e) {
      return -1;
    }
  }
}
