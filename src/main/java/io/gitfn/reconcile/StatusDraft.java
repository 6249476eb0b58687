package io.gitfn.reconcile;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.gitfn.api.ConditionedStatus;
import io.gitfn.api.Conditions;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The status one pass will write: the resource's status, which steps change in place, with its conditions kept
 * apart until {@link #finish}, and what the pass's Events will say.
 *
 * <p>Status is written only when it differs from what the object showed when the pass began, and a condition's
 * message is cut at {@link #MAX_MESSAGE}: it may quote what a tenant's files or Git server said.
 *
 * <p>Events follow one policy for both kinds. Each kind names the conditions it reports ({@code Ready} for a
 * FunctionRepository; ConfigurationReady, BuildReady and Running for a Function). A reported condition gets one
 * Event when the pass changes its status or reason, or when a step attached a note to it (news that changes no
 * reason, such as a new revision applied); not when only its message moves, which would be an Event at every step
 * of a rollout. The Event's reason is the condition's, its message the note or else the condition's message, and it
 * is a Warning when the step that set the condition said something failed (by default: the condition is False).
 *
 * @param <T> the status
 */
public final class StatusDraft<T extends ConditionedStatus> {

  public static final int MAX_MESSAGE = 4096;

  /** An Event the pass records about its resource. */
  public record Event(boolean warning, String reason, String message) {}

  private final T status;
  private final List<Condition> before;
  private final List<Condition> conditions;
  private final Set<String> reported;
  private final Map<String, Boolean> warnings = new HashMap<>();
  private final Map<String, String> notes = new LinkedHashMap<>();
  private final Long generation;
  private final Clock clock;
  private final KubernetesSerialization json;
  private final String beforeJson;

  /**
   * @param status the resource's status (steps change it in place), or a new one when it has none yet
   * @param generation the generation the pass acts on, which the status will say it observed
   * @param reported the condition types whose changes are Events
   */
  public StatusDraft(T status, Long generation, Set<String> reported, Clock clock, KubernetesSerialization json) {
    this.status = status;
    this.before = Conditions.copy(status.getConditions());
    this.conditions = Conditions.copy(status.getConditions());
    this.reported = Set.copyOf(reported);
    this.generation = generation;
    this.clock = clock;
    this.json = json;
    this.beforeJson = json.asJson(status);
  }

  /** The status this pass writes; steps set its fields directly, and its conditions through this draft. */
  public T status() {
    return status;
  }

  /** Sets a condition, whose Event (if reported) is a Warning when it is False. */
  public void set(String type, String value, String reason, String message) {
    set(type, value, reason, message, "False".equals(value));
  }

  /**
   * Sets a condition; its transition time moves only when its status does.
   *
   * @param warning whether its Event is a Warning: something failed
   */
  public void set(String type, String value, String reason, String message, boolean warning) {
    Conditions.set(conditions, type, value, reason, shortened(message), generation, clock.instant());
    warnings.put(type, warning);
  }

  /** Attaches news to the condition's Event, which then goes out even if its status and reason stay. */
  public void note(String type, String text) {
    notes.put(type, text);
  }

  public void remove(String type) {
    Conditions.remove(conditions, type);
    notes.remove(type);
  }

  /** The condition as this pass leaves it so far. */
  public Optional<Condition> condition(String type) {
    return Conditions.find(conditions, type);
  }

  /** The conditions as this pass leaves them so far, as a copy. */
  public List<Condition> conditions() {
    return new ArrayList<>(conditions);
  }

  /** The condition as the object showed it when the pass began. */
  public Optional<Condition> before(String type) {
    return Conditions.find(before, type);
  }

  /**
   * Puts the conditions and the observed generation into the status; returns whether it differs from the status
   * the pass began with, which is when it must be written.
   */
  public boolean finish() {
    status.setConditions(conditions());
    status.setObservedGeneration(generation);
    return !beforeJson.equals(json.asJson(status));
  }

  /** The pass's Events, by the policy above, in the order the conditions were first set. */
  public List<Event> events() {
    List<Event> events = new ArrayList<>();
    for (Condition now : conditions) {
      if (!reported.contains(now.getType())) {
        continue;
      }
      Optional<Condition> was = before(now.getType());
      boolean moved = was.isEmpty() || !was.get().getStatus().equals(now.getStatus())
          || !java.util.Objects.equals(was.get().getReason(), now.getReason());
      String note = notes.get(now.getType());
      if (moved || note != null) {
        boolean warning = warnings.getOrDefault(now.getType(), "False".equals(now.getStatus()));
        events.add(new Event(warning, now.getReason(), note != null ? note : now.getMessage()));
      }
    }
    return events;
  }

  /** {@code message}, cut to {@link #MAX_MESSAGE} with a word on how much was left out. */
  public static String shortened(String message) {
    if (message == null || message.length() <= MAX_MESSAGE) {
      return message;
    }
    String cut = " ... (" + (message.length() - MAX_MESSAGE) + " more characters)";
    return message.substring(0, MAX_MESSAGE - cut.length()) + cut;
  }
}
