package io.gitfn.workload;

import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.gitfn.api.function.Function;
import java.util.LinkedHashMap;
import java.util.Map;

/** The Service in front of a Function's Pods (reference §2.5). */
public final class DesiredService {

  public static final int PORT = 80;

  private DesiredService() {
  }

  /** Named after the Function; port {@code http} because Istio infers the protocol from the port's name. */
  public static Service forFunction(Function fn) {
    Map<String, String> annotations = new LinkedHashMap<>();
    annotations.put("prometheus.io/scrape", "true");
    annotations.put("prometheus.io/port", Integer.toString(DesiredDeployment.PORT));
    annotations.put("prometheus.io/path", "/metrics");
    return new ServiceBuilder()
        .withNewMetadata()
        .withName(fn.getMetadata().getName())
        .withNamespace(fn.getMetadata().getNamespace())
        .withLabels(ChildLabels.ofFunction(fn))
        .withAnnotations(annotations)
        .withOwnerReferences(Owner.of(fn))
        .endMetadata()
        .withNewSpec()
        .addNewPort()
        .withName("http")
        .withPort(PORT)
        .withTargetPort(new IntOrString(DesiredDeployment.PORT))
        .withProtocol("TCP")
        .endPort()
        .withSelector(ChildLabels.selector(fn))
        .endSpec()
        .build();
  }
}
