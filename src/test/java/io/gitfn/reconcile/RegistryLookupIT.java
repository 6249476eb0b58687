package io.gitfn.reconcile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.gitfn.api.function.Function;
import io.gitfn.api.function.TestFunction;
import io.gitfn.build.ContentKey;
import io.gitfn.build.ImageReference;
import io.gitfn.controller.Controller;
import io.gitfn.reconcile.registry.FakeRegistry;
import io.gitfn.reconcile.registry.RegistryLookupSettings;
import io.gitfn.source.SourceSettings;
import io.gitfn.testbed.KubeTestBed;
import io.gitfn.testbed.KwokBuildStages;
import io.gitfn.testbed.TestNamespace;
import io.gitfn.testbed.WithKubeCluster;
import io.gitfn.trigger.webhook.WebhookSettings;
import io.gitfn.workload.WorkloadSettings;
import java.nio.file.Files;
import java.time.Duration;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * With the registry lookup on, an image the registry already has is not built again: a Function deleted and made
 * again (so its history is gone) rolls out at once, and one whose image is missing builds as usual.
 */
@WithKubeCluster
class RegistryLookupIT {

  private static final Duration WAIT = Duration.ofSeconds(60);
  private static final String SOURCE = "module.exports = { main: () => 'cached' };";

  @Test
  void anImageTheRegistryHasIsNotBuiltAgain(KubeTestBed bed, KubernetesClient client, TestNamespace ns)
      throws Exception {
    bed.installCrds();
    try (FakeRegistry registry = FakeRegistry.start();
        KubernetesClient controllerClient = bed.newClient();
        Controller controller = Controller.start(controllerClient,
            SourceSettings.defaults(Files.createTempDirectory("gitfn-lookup-mirrors")), WebhookSettings.defaults(),
            ControllerSettings.defaults().withRegistryLookup(RegistryLookupSettings.enabled(Set.of(registry.host()))),
            KwokBuildStages.jobBuilds().withRegistry(registry.host()), WorkloadSettings.defaults(), "127.0.0.1", 0);
        JobLog jobs = JobLog.watch(client, ns)) {
      Function cached = function(ns, "cached");
      ContentKey key = ContentKey.ofInline(cached, KwokBuildStages.jobBuilds().withRegistry(registry.host()));
      ImageReference image = ImageReference.parse(registry.host() + "/" + ns.name() + "/cached:" + key.tag());
      registry.holding(image.repository(), image.tag());

      client.resource(cached).create();
      client.resource(function(ns, "fresh")).create();

      await().atMost(WAIT).untilAsserted(() -> {
        Function fn = get(client, ns, "cached");
        assertThat(condition(fn, "BuildReady").getStatus()).isEqualTo("True");
        assertThat(condition(fn, "Running").getStatus()).isEqualTo("True");
        assertThat(fn.getStatus().getHistory()).extracting("outcome").containsExactly("Reused");
        assertThat(condition(get(client, ns, "fresh"), "Running").getStatus()).isEqualTo("True");
      });
      assertThat(jobs.names()).as("only the image the registry lacks is built").singleElement()
          .satisfies(name -> assertThat(name).startsWith("fresh-build-"));
      assertThat(client.v1().events().inNamespace(ns.name()).list().getItems())
          .anySatisfy(e -> assertThat(e.getMessage()).contains(image + " is already in the registry"));
      assertThat(registry.requests()).anySatisfy(r -> {
        assertThat(r.method()).isEqualTo("HEAD");
        assertThat(r.path()).isEqualTo("/v2/" + image.repository() + "/manifests/" + image.tag());
      });
    }
  }

  private static Function function(TestNamespace ns, String name) {
    return TestFunction.inline().named(name).inNamespace(ns.name()).uid(null).code(SOURCE).build();
  }

  private static Function get(KubernetesClient client, TestNamespace ns, String name) {
    return client.resources(Function.class).inNamespace(ns.name()).withName(name).get();
  }

  private static Condition condition(Function fn, String type) {
    assertThat(fn.getStatus()).as(fn.getMetadata().getName() + " has a status").isNotNull();
    return fn.getStatus().getConditions().stream().filter(c -> c.getType().equals(type)).findFirst()
        .orElseThrow(() -> new AssertionError(fn.getMetadata().getName() + " has no condition " + type));
  }
}
