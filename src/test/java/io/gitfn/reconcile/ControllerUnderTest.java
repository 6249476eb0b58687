package io.gitfn.reconcile;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.gitfn.build.BuildSettings;
import io.gitfn.controller.Controller;
import io.gitfn.source.SourceSettings;
import io.gitfn.testbed.KubeTestBed;
import io.gitfn.trigger.webhook.WebhookSettings;
import io.gitfn.workload.WorkloadSettings;
import java.nio.file.Files;

/**
 * gitfn's controller for one integration test class, on a client of its own and a fresh mirror cache, with the
 * CRDs installed: started in {@code @BeforeAll}, closed in {@code @AfterAll}.
 */
record ControllerUnderTest(KubernetesClient client, Controller controller) implements AutoCloseable {

  /** Starts the controller on the client and mirror settings it is given. */
  interface Starter {
    Controller start(KubernetesClient client, SourceSettings sources) throws Exception;
  }

  /** The controller with these settings, default webhook and workload settings, and a webhook on a free port. */
  static ControllerUnderTest start(KubeTestBed bed, String name, ControllerSettings settings, BuildSettings builds)
      throws Exception {
    return start(bed, name, (client, sources) -> Controller.start(client, sources, WebhookSettings.defaults(),
        settings, builds, WorkloadSettings.defaults(), "127.0.0.1", 0));
  }

  static ControllerUnderTest start(KubeTestBed bed, String name, ControllerSettings settings) throws Exception {
    return start(bed, name, settings, bed.layeredBuilds().settings());
  }

  /** @param name what the mirror cache's temporary folder is named after, {@code gitfn-<name>-mirrors} */
  static ControllerUnderTest start(KubeTestBed bed, String name, Starter starter) throws Exception {
    bed.installCrds();
    KubernetesClient client = bed.newClient();
    try {
      SourceSettings sources = SourceSettings.defaults(Files.createTempDirectory("gitfn-" + name + "-mirrors"));
      return new ControllerUnderTest(client, starter.start(client, sources));
    } catch (Exception | Error e) {
      client.close();
      throw e;
    }
  }

  @Override
  public void close() throws Exception {
    try {
      controller.close();
    } finally {
      client.close();
    }
  }
}
