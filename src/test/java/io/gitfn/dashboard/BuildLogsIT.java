package io.gitfn.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.http.BasicBuilder;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.Interceptor;
import io.gitfn.MutableClock;
import io.gitfn.testbed.KubeTestBed;
import io.gitfn.testbed.TestNamespace;
import io.gitfn.testbed.WithKubeApi;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A build Pod's log, asked of a real API server for a Pod whose kubelet does not answer: the API server says 500, and
 * the page takes that answer after one request instead of the client's retries.
 */
@WithKubeApi
class BuildLogsIT {

  @Test
  void aLogTheKubeletCannotGiveCostsOneRequestAndSaysWhy(KubeTestBed bed, KubernetesClient admin, TestNamespace ns) {
    // A node whose kubelet would be at 127.0.0.1:1, where nothing listens, and a finished build Pod on it.
    String node = "gone-" + ns.name();
    admin.nodes().resource(new NodeBuilder().withNewMetadata().withName(node).endMetadata().build()).create();
    // A merge patch without a resourceVersion: the node controller may write the new node's status meanwhile.
    admin.nodes().withName(node).subresource("status").patch(PatchContext.of(PatchType.STRATEGIC_MERGE), """
        {"status": {"addresses": [{"type": "InternalIP", "address": "127.0.0.1"}],
                    "daemonEndpoints": {"kubeletEndpoint": {"Port": 1}}}}""");
    admin.resource(new ServiceAccountBuilder().withNewMetadata().withName("default").withNamespace(ns.name())
        .endMetadata().build()).createOr(existing -> existing.update()); // when no controller-manager made it
    Pod pod = admin.pods().inNamespace(ns.name()).resource(new PodBuilder().withNewMetadata()
        .withName("hello-build-k1-abcde").addToLabels("job-name", "hello-build-k1").endMetadata()
        .withNewSpec().withNodeName(node).addNewContainer().withName("build").withImage("builder").endContainer()
        .withRestartPolicy("Never").endSpec().build()).create();
    admin.pods().inNamespace(ns.name()).resource(new PodBuilder(pod).withNewStatus().withPhase("Succeeded")
        .endStatus().build()).updateStatus();

    AtomicInteger logRequests = new AtomicInteger();
    Interceptor counting = new Interceptor() {
      @Override
      public void before(BasicBuilder builder, HttpRequest request, RequestTags tags) {
        if (request.uri().getPath().endsWith("/log")) {
          logRequests.incrementAndGet();
        }
      }
    };
    try (KubernetesClient client = new KubernetesClientBuilder().withConfig(bed.config())
        .withHttpClientBuilderConsumer(b -> b.addOrReplaceInterceptor("count-logs", counting)).build()) {
      BuildLog log = new BuildLogs(client, new MutableClock(Instant.parse("2026-11-26T10:00:00Z")))
          .tail(ns.name(), "hello-build-k1", false);

      assertThat(log.missing()).startsWith("the API server did not give the log");
      assertThat(logRequests).as("one try: the client's retries would ask eleven times").hasValue(1);
    } finally {
      admin.nodes().withName(node).delete();
    }
  }
}
