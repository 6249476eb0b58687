package io.gitfn.reconcile;

import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.gitfn.events.EventRecorder;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import java.lang.reflect.InvocationTargetException;

/**
 * Writes a pass's status to the API server with server-side apply on the status subresource, as the controller's
 * field manager, and keeps the server's answer in front of the informer's copy ({@link WrittenStatuses}), so that the
 * next pass reads this write even when the informer has not caught up: a pass that recorded a revision in the
 * history is never followed by one that reads the history from before it.
 *
 * <p>The apply carries no resourceVersion. Status is this controller's alone, and a conflict would throw away what
 * the pass did (a sync's counts of created and pruned Functions, which no later pass can know again); a newer spec
 * is still seen, since its own event starts the next pass.
 */
public final class ApiStatusWriter<R extends CustomResource<?, ?>> implements StatusWriter {

  private final EventRecorder events;
  private final WrittenStatuses<R> written;

  /** @param written where the kind's status writes are kept until its informer shows them */
  public ApiStatusWriter(EventRecorder events, WrittenStatuses<R> written) {
    this.events = events;
    this.written = written;
  }

  @Override
  @SuppressWarnings("unchecked")
  public void write(PassState<?, ?> state) {
    writeStatus((PassState<R, ?>) state);
    for (StatusDraft.Event event : state.draft().events()) {
      if (event.warning()) {
        events.warning(state.resource(), event.reason(), event.message());
      } else {
        events.normal(state.resource(), event.reason(), event.message());
      }
    }
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private void writeStatus(PassState<R, ?> state) {
    if (!state.draft().finish()) {
      return;
    }
    R resource = state.resource();
    Context<R> context = state.context();
    R patch = empty(resource);
    patch.getMetadata().setName(resource.getMetadata().getName());
    patch.getMetadata().setNamespace(resource.getMetadata().getNamespace());
    ((CustomResource) patch).setStatus(state.status());
    R updated = context.getClient().resource(patch).subresource("status").patch(new PatchContext.Builder()
        .withPatchType(PatchType.SERVER_SIDE_APPLY).withForce(true)
        .withFieldManager(context.getControllerConfiguration().fieldManager()).build());
    written.wrote(resource, updated);
  }

  @SuppressWarnings("unchecked")
  private static <R extends CustomResource<?, ?>> R empty(R resource) {
    try {
      return (R) resource.getClass().getConstructor().newInstance();
    } catch (InstantiationException | IllegalAccessException | InvocationTargetException | NoSuchMethodException e) {
      throw new IllegalStateException(resource.getClass() + " has no public no-argument constructor", e);
    }
  }
}
