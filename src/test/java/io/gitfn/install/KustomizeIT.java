package io.gitfn.install;

import static io.gitfn.install.Manifests.helmTemplate;
import static io.gitfn.install.Manifests.kustomizeDefault;
import static io.gitfn.install.Manifests.only;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.gitfn.testbed.KubeTestBed;
import io.gitfn.testbed.WithKubeCluster;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * config/default, the kustomize install: the same objects as the chart's defaults, accepted by the API server in a
 * dry run, and applied for real in gitfn-system, where the controller's Pods pass the "restricted" Pod Security
 * level and roll out (kwok plays the kubelet).
 */
@WithKubeCluster
class KustomizeIT {

  private static final String NAMESPACE = "gitfn-system";
  private static List<HasMetadata> objects;

  @BeforeAll
  static void build(KubeTestBed bed) {
    bed.installCrds();
    objects = kustomizeDefault();
  }

  @AfterAll
  static void uninstall(KubeTestBed bed) {
    try (KubernetesClient client = bed.newClient()) {
      objects.stream().filter(o -> !(o instanceof CustomResourceDefinition)).forEach(o -> client.resource(o).delete());
    }
  }

  @Test
  void theBaseHoldsTheChartsDefaultObjectsWithoutHelmsLabels() {
    List<HasMetadata> chart = helmTemplate("gitfn", NAMESPACE, ChartIT.REGISTRY, "--include-crds");

    assertThat(objects.stream().filter(o -> !(o instanceof Namespace)).toList()).extracting(KustomizeIT::id)
        .containsExactlyInAnyOrderElementsOf(chart.stream().map(KustomizeIT::id).toList())
        .contains("ClusterRole/gitfn-controller", "Deployment/gitfn-controller");
    for (HasMetadata fromChart : chart) {
      HasMetadata fromKustomize = Manifests.find(objects, fromChart.getKind(), fromChart.getMetadata().getName())
          .orElseThrow();
      assertThat(comparable(fromKustomize)).as("%s in config/ and in charts/gitfn", id(fromChart))
          .isEqualTo(comparable(fromChart));
    }
  }

  @Test
  void theClusterRoleRulesAreTheChartsRuleForRule() {
    ClusterRole chart = only(helmTemplate("gitfn", NAMESPACE, ChartIT.REGISTRY), ClusterRole.class);
    assertThat(only(objects, ClusterRole.class).getRules()).containsExactlyElementsOf(chart.getRules());
  }

  @Test
  void theBaseAppliesInGitfnSystemAndTheControllerRollsOut(KubernetesClient client) {
    Namespace namespace = only(objects, Namespace.class);
    client.resource(namespace).fieldManager("gitfn-install-test").forceConflicts().serverSideApply();
    // A dry run of a namespaced object needs its namespace to exist, so the Namespace is applied first.
    ChartIT.dryRunEach(client, objects.stream().filter(o -> !(o instanceof Namespace)
        && !(o instanceof CustomResourceDefinition)).toList());

    for (HasMetadata object : objects) {
      client.resource(object).fieldManager("gitfn-install-test").forceConflicts().serverSideApply();
    }

    Deployment deployment = only(objects, Deployment.class);
    assertThat(deployment.getMetadata().getNamespace()).isEqualTo(NAMESPACE);
    // The namespace enforces the "restricted" Pod Security level: a Pod that asks for more is never created.
    await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
      Deployment live = client.apps().deployments().inNamespace(NAMESPACE).withName("gitfn-controller").get();
      assertThat(live.getStatus()).isNotNull();
      assertThat(live.getStatus().getAvailableReplicas()).isEqualTo(2);
    });
    assertThat(client.pods().inNamespace(NAMESPACE).withLabel("app.kubernetes.io/component", "controller").list()
        .getItems()).hasSize(2).allSatisfy(p -> assertThat(p.getSpec().getServiceAccountName()).isEqualTo("gitfn"));
    assertThat(client.serviceAccounts().inNamespace(NAMESPACE).withName("gitfn").get()).isNotNull();
    assertThat(client.rbac().clusterRoleBindings().withName("gitfn-controller").get().getSubjects())
        .singleElement().satisfies(s -> assertThat(s.getNamespace()).isEqualTo(NAMESPACE));
  }

  private static String id(HasMetadata o) {
    return o.getKind() + "/" + o.getMetadata().getName();
  }

  /** The object as JSON, without the labels only Helm adds. */
  private static JsonNode comparable(HasMetadata object) {
    JsonNode tree = Manifests.SERIALIZATION.convertValue(object, JsonNode.class);
    JsonNode labels = tree.path("metadata").path("labels");
    if (labels instanceof ObjectNode map) {
      map.remove(List.of("helm.sh/chart", "app.kubernetes.io/managed-by"));
    }
    return tree;
  }
}
