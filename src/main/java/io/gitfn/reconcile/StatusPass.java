package io.gitfn.reconcile;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.gitfn.api.ConditionedStatus;
import io.gitfn.api.Conditions;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * What one pass of either reconciler does to its resource's status: conditions set on a copy, each change noted
 * for its Event, the soonest retry a step asked for, and a status write only when the status changed.
 *
 * @param <R> the resource
 * @param <S> its status
 */
final class StatusPass<R extends CustomResource<?, S>, S extends ConditionedStatus> {

  static final int MAX_MESSAGE = 4096;

  private final R resource;
  private final S status;
  private final List<Condition> conditions;
  private final Long generation;
  private final Clock clock;
  private final KubernetesSerialization json;
  private final String before;
  private final Map<String, Condition> changed = new LinkedHashMap<>();
  private boolean conditionsChanged;
  private Duration retry;

  StatusPass(R resource, Supplier<S> empty, Clock clock, KubernetesSerialization json) {
    this.resource = resource;
    this.status = resource.getStatus() == null ? empty.get() : resource.getStatus();
    this.conditions = Conditions.copy(status.getConditions());
    this.generation = resource.getMetadata().getGeneration();
    this.clock = clock;
    this.json = json;
    this.before = json.asJson(status);
  }

  /** The status this pass writes; steps set its fields directly. */
  S status() {
    return status;
  }

  /**
   * Sets a condition; its transition time moves only when its status does. A message longer than
   * {@link #MAX_MESSAGE} is cut: it may quote what a tenant's files or Git server said, and status must stay small.
   */
  void set(String type, String value, String reason, String message) {
    if (Conditions.set(conditions, type, value, reason, shortened(message), generation, clock.instant())) {
      changed.put(type, Conditions.find(conditions, type).orElseThrow());
      conditionsChanged = true;
    }
  }

  /** The conditions as this pass leaves them so far, as a copy. */
  List<Condition> conditions() {
    return new ArrayList<>(conditions);
  }

  /** The condition as this pass leaves it so far. */
  Optional<Condition> condition(String type) {
    return Conditions.find(conditions, type);
  }

  void remove(String type) {
    if (Conditions.remove(conditions, type)) {
      changed.remove(type);
      conditionsChanged = true;
    }
  }

  static String shortened(String message) {
    if (message == null || message.length() <= MAX_MESSAGE) {
      return message;
    }
    String cut = " ... (" + (message.length() - MAX_MESSAGE) + " more characters)";
    return message.substring(0, MAX_MESSAGE - cut.length()) + cut;
  }

  /** The conditions this pass set with a new status, reason or message, in the order it set them. */
  Collection<Condition> changed() {
    return new ArrayList<>(changed.values());
  }

  /** Whether any condition was set anew or removed. */
  boolean conditionsChanged() {
    return conditionsChanged;
  }

  /** Asks for the next pass within {@code delay}; the soonest request of the pass wins. */
  void retryWithin(Duration delay) {
    retry = retry == null || delay.compareTo(retry) < 0 ? delay : retry;
  }

  Optional<Duration> retry() {
    return Optional.ofNullable(retry);
  }

  /**
   * Puts the conditions and the observed generation into the status, and patches it only when it differs from the
   * status the pass started with.
   */
  UpdateControl<R> finish() {
    status.setConditions(conditions);
    status.setObservedGeneration(generation);
    if (before.equals(json.asJson(status))) {
      return UpdateControl.noUpdate();
    }
    resource.setStatus(status);
    // Status is this controller's alone: a patch without a resourceVersion cannot lose to a newer spec, while the
    // cached copy's older version would earn a 409, and a retried pass would report what the first one did as
    // nothing (a sync that pruned a Function would record 0 deleted).
    resource.getMetadata().setResourceVersion(null);
    return UpdateControl.patchStatus(resource);
  }
}
