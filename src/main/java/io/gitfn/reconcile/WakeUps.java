package io.gitfn.reconcile;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.inbound.SimpleInboundEventSource;

/**
 * Starts a pass of a resource of one kind from outside its informer: its Git source moved, a build slot was handed
 * to it, a forge answered, a Function of it or a repository it depends on moved. The kind's reconciler registers
 * {@link #source} as one of its event sources; a wake-up before the controller started is dropped, which costs
 * nothing, since every resource has a pass when it starts.
 *
 * @param <R> the kind woken
 */
public final class WakeUps<R extends HasMetadata> {

  private final SimpleInboundEventSource<R> source;

  public WakeUps(String name) {
    this.source = new SimpleInboundEventSource<>(name);
  }

  public void wake(ResourceID id) {
    source.propagateEvent(id);
  }

  public void wake(String namespace, String name) {
    wake(new ResourceID(name, namespace));
  }

  /** The event source the kind's reconciler registers. */
  public SimpleInboundEventSource<R> source() {
    return source;
  }
}
