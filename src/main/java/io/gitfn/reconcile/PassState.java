package io.gitfn.reconcile;

import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.gitfn.api.ConditionedStatus;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

/**
 * What one pass knows and decides, shared by its steps: the resource as the pass began, its status draft, the
 * soonest look a step asked for, and what may happen only once the API server shows the status the pass wrote
 * (waking a dependent, telling a forge). Each kind's state adds what its steps hand each other.
 *
 * <p>A pass's state lives for that pass only: everything a later pass needs is in the status it writes.
 *
 * @param <R> the resource
 * @param <T> its status
 */
public abstract class PassState<R extends CustomResource<?, T>, T extends ConditionedStatus> {

  private final R resource;
  private final Context<R> context;
  private final StatusDraft<T> draft;
  private final List<Runnable> afterWrite = new ArrayList<>();
  private Optional<Duration> requeue = Optional.empty();

  /**
   * @param context the SDK's context of the pass; null in a test of steps that do not use it
   * @param reported the condition types whose changes are Events ({@link StatusDraft})
   */
  protected PassState(R resource, Context<R> context, Supplier<T> empty, Set<String> reported, Clock clock,
      KubernetesSerialization json) {
    this.resource = resource;
    this.context = context;
    if (resource.getStatus() == null) {
      resource.setStatus(empty.get());
    }
    this.draft = new StatusDraft<>(resource.getStatus(), resource.getMetadata().getGeneration(), reported, clock,
        json);
  }

  /** The resource as the pass began; its status is the draft's. */
  public R resource() {
    return resource;
  }

  /** The SDK's context of the pass. */
  public Context<R> context() {
    return context;
  }

  public StatusDraft<T> draft() {
    return draft;
  }

  /** The status the pass writes; steps set its fields directly. */
  public T status() {
    return draft.status();
  }

  /** Asks for the next pass within {@code delay}; the soonest request of the pass wins. */
  public void requeueWithin(Duration delay) {
    requeue = Result.soonest(requeue, Optional.of(delay));
  }

  void requeueWithin(Optional<Duration> delay) {
    requeue = Result.soonest(requeue, delay);
  }

  /** The soonest look a step asked for. */
  public Optional<Duration> requeue() {
    return requeue;
  }

  /**
   * Runs {@code action} once the API server shows the status this pass leaves (written, or unchanged), and not at
   * all when the write fails: a dependent woken, a forge told, a repository told its Function moved.
   */
  public void afterWrite(Runnable action) {
    afterWrite.add(action);
  }

  List<Runnable> afterWriteActions() {
    return List.copyOf(afterWrite);
  }
}
