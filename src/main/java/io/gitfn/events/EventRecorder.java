package io.gitfn.events;

import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Clock;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Kubernetes Events about gitfn's resources, as {@code kubectl describe} shows them. Never fails what it tells of: a
 * reconcile, or a person's action on the dashboard.
 */
public final class EventRecorder {

  private static final Logger log = LoggerFactory.getLogger(EventRecorder.class);
  private static final int MAX_MESSAGE = 1024;

  private final KubernetesClient client;
  private final Clock clock;
  private final String instance;

  /** @param instance the controller instance, shown as the Event's source host: with shards, it says which wrote */
  public EventRecorder(KubernetesClient client, Clock clock, String instance) {
    this.client = client;
    this.clock = clock;
    this.instance = instance;
  }

  public void normal(HasMetadata about, String reason, String message) {
    record(about, "Normal", reason, message);
  }

  public void warning(HasMetadata about, String reason, String message) {
    record(about, "Warning", reason, message);
  }

  private void record(HasMetadata about, String type, String reason, String message) {
    String now = clock.instant().toString();
    String text = message.length() > MAX_MESSAGE ? message.substring(0, MAX_MESSAGE - 3) + "..." : message;
    try {
      client.v1().events().inNamespace(about.getMetadata().getNamespace()).resource(new EventBuilder()
          .withNewMetadata()
          .withName(about.getMetadata().getName() + "." + UUID.randomUUID().toString().substring(0, 8))
          .withNamespace(about.getMetadata().getNamespace())
          .endMetadata()
          .withNewInvolvedObject()
          .withApiVersion(about.getApiVersion()).withKind(about.getKind())
          .withName(about.getMetadata().getName()).withNamespace(about.getMetadata().getNamespace())
          .withUid(about.getMetadata().getUid())
          .endInvolvedObject()
          .withType(type).withReason(reason).withMessage(text)
          .withFirstTimestamp(now).withLastTimestamp(now).withCount(1)
          .withNewSource().withComponent("gitfn").withHost(instance).endSource()
          .build()).create();
    } catch (KubernetesClientException e) {
      log.warn("cannot record event {} on {}/{}: {}", reason, about.getMetadata().getNamespace(),
          about.getMetadata().getName(), e.getMessage());
    }
  }
}
