package io.gitfn.build;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.NonDeletingOperation;
import io.gitfn.testbed.TestNamespace;
import io.gitfn.testbed.WithKubeApi;
import org.junit.jupiter.api.Test;

/**
 * The install Job's Pod against a real API server's PodSecurity admission, in a namespace that enforces
 * {@code restricted}: admitted, where the same Pod with a container running as root is refused.
 */
@WithKubeApi
class DependencyInstallJobIT {

  @Test
  void theInstallJobsPodIsAdmittedWherePodSecurityEnforcesRestrictedAndAsRootItIsNot(KubernetesClient client,
      TestNamespace ns) {
    client.namespaces().withName(ns.name()).edit(n -> {
      n.getMetadata().getLabels().put("pod-security.kubernetes.io/enforce", "restricted");
      return n;
    });
    // The ServiceAccount admission looks the Pod's account up. A bed with a controller-manager has made it; one
    // with only an API server has not.
    client.serviceAccounts().inNamespace(ns.name()).resource(new ServiceAccountBuilder().withNewMetadata()
        .withName("default").endMetadata().build()).createOr(NonDeletingOperation::update);

    PodSpec install = DependencyInstallJobTest.job(BuildSettings.defaults().withPackageRegistrySecret("npm"))
        .getSpec().getTemplate().getSpec();
    client.resource(pod(ns, "install", install)).dryRun().create();

    // Not vacuous: the same Pod with its pack container as root is refused.
    PodSpec asRoot = DependencyInstallJobTest.job(BuildSettings.defaults()).getSpec().getTemplate().getSpec();
    asRoot.getContainers().get(0).getSecurityContext().setRunAsNonRoot(false);
    asRoot.getContainers().get(0).getSecurityContext().setRunAsUser(0L);
    assertThatThrownBy(() -> client.resource(pod(ns, "as-root", asRoot)).dryRun().create())
        .isInstanceOf(KubernetesClientException.class).hasMessageContaining("violates PodSecurity \"restricted");
  }

  private static Pod pod(TestNamespace ns, String name, PodSpec spec) {
    return new PodBuilder().withNewMetadata().withName(name).withNamespace(ns.name()).endMetadata()
        .withSpec(spec).build();
  }
}
