package io.gitfn.testbed;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.Test;

/** The API-server test bed is a real kube-apiserver on etcd, with server-side apply. */
@WithKubeApi
class KubeApiIT {

  @Test
  void servesThePinnedKubernetesRelease(KubernetesClient client, KubeTestBed bed) {
    assertThat("v" + client.getKubernetesVersion().getMajor() + "." + client.getKubernetesVersion().getMinor())
        .isEqualTo(bed.kubernetesVersion().replaceAll("\\.\\d+$", ""));
    assertThat(client.getKubernetesVersion().getGitVersion()).isEqualTo(bed.kubernetesVersion());
    assertThat(bed.runningComponents()).contains("etcd", "kube-apiserver");
  }

  @Test
  void eachTestGetsItsOwnNamespace(KubernetesClient client, TestNamespace ns) {
    assertThat(client.namespaces().withName(ns.name()).get()).isNotNull();
    assertThat(ns.name()).startsWith("kubeapiit-");
  }

  @Test
  void serverSideApplyRecordsTheFieldManager(KubernetesClient client, TestNamespace ns) {
    ConfigMap desired =
        new ConfigMapBuilder()
            .withNewMetadata().withName("applied").withNamespace(ns.name()).endMetadata()
            .addToData("handler.js", "module.exports = {}")
            .build();

    client.resource(desired).fieldManager("gitfn").forceConflicts().serverSideApply();

    ConfigMap stored = client.configMaps().inNamespace(ns.name()).withName("applied").get();
    assertThat(stored.getData()).containsEntry("handler.js", "module.exports = {}");
    assertThat(stored.getMetadata().getManagedFields())
        .anySatisfy(f -> {
          assertThat(f.getManager()).isEqualTo("gitfn");
          assertThat(f.getOperation()).isEqualTo("Apply");
        });
  }
}
