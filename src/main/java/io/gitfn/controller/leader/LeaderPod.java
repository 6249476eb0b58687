package io.gitfn.controller.leader;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.gitfn.api.Labels;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The label that marks the leader's Pod, so that the webhook Service, which selects on it, sends deliveries to
 * the one instance that acts on them: a standby tracks no source and answers 503.
 *
 * <p>The label's value is the Lease's name, so that shards with Leases of their own in one namespace each route to
 * their own leader. A new leader takes the label from every other Pod of its Lease, so a leader that hangs
 * without exiting stops getting deliveries too; a (re)started instance drops its own label before it stands for
 * election, so a restarted container in the old leader's Pod receives nothing until it leads again.
 */
public final class LeaderPod {

  private static final Logger log = LoggerFactory.getLogger(LeaderPod.class);

  private final KubernetesClient client;
  private final String namespace;
  private final String pod;
  private final String lease;

  /** The Pod {@code pod} in {@code namespace}, whose label names {@code lease}. */
  public LeaderPod(KubernetesClient client, String namespace, String pod, String lease) {
    this.client = client;
    this.namespace = namespace;
    this.pod = pod;
    this.lease = lease;
  }

  /**
   * This instance's Pod, from the downward API's {@code POD_NAME} and {@code POD_NAMESPACE}, when it runs in one
   * in the Lease's namespace and the Lease's name fits a label value; empty otherwise, and the webhook Service
   * cannot be routed this way.
   */
  public static Optional<LeaderPod> fromEnvironment(KubernetesClient client, LeaderElection election) {
    String name = System.getenv("POD_NAME");
    String namespace = System.getenv("POD_NAMESPACE");
    if (name == null || name.isBlank() || !election.namespace().equals(namespace)) {
      return Optional.empty();
    }
    if (election.leaseName().length() > 63) {
      log.warn("the Lease name {} is longer than a label value may be: the leader's Pod is not labelled {}",
          election.leaseName(), Labels.LEADER);
      return Optional.empty();
    }
    return Optional.of(new LeaderPod(client, namespace, name, election.leaseName()));
  }

  /** Labels this Pod as the leader's, and takes the label from any other Pod of the same Lease. */
  public void mark() {
    label(pod, "\"" + lease + "\"");
    try {
      for (Pod other : client.pods().inNamespace(namespace).withLabel(Labels.LEADER, lease).list().getItems()) {
        if (!other.getMetadata().getName().equals(pod)) {
          label(other.getMetadata().getName(), "null");
        }
      }
    } catch (KubernetesClientException e) {
      log.warn("cannot list the Pods labelled {}={} in {}: {}", Labels.LEADER, lease, namespace, e.getMessage());
    }
  }

  /** Takes the label from this Pod. */
  public void unmark() {
    label(pod, "null");
  }

  // A JSON merge patch: it touches this one label, whoever manages the Pod's other labels. Patched through a stub
  // of the Pod, because fabric8's withName(name).patch(...) first GETs the Pod, which the chart's Role does not grant.
  private void label(String name, String value) {
    Pod stub = new PodBuilder().withNewMetadata().withName(name).withNamespace(namespace).endMetadata().build();
    try {
      client.pods().inNamespace(namespace).resource(stub).patch(PatchContext.of(PatchType.JSON_MERGE),
          "{\"metadata\":{\"labels\":{\"" + Labels.LEADER + "\":" + value + "}}}");
    } catch (KubernetesClientException e) {
      if (e.getCode() != 404) {
        log.warn("cannot {} Pod {}/{}: {}", value.equals("null") ? "unlabel" : "label", namespace, name,
            e.getMessage());
      }
    }
  }
}
