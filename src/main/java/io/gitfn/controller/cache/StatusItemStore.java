package io.gitfn.controller.cache;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.informers.cache.BasicItemStore;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import java.util.function.Consumer;

/**
 * An informer cache that keeps an object's metadata and status, without its spec or managedFields: the install Job
 * and install Pod informers'. The controller reads only the name, labels, annotations, owners and status of a cached
 * install Job or Pod; the pod template or spec (the install script, the pack's arguments, volumes and mounts) is most
 * of its weight, there is an install Job per set of dependencies, and a finished one keeps its Pod until it goes.
 */
public final class StatusItemStore<T extends HasMetadata> extends BasicItemStore<T> {

  private final Consumer<T> dropSpec;

  /** @param dropSpec sets the object's spec to null ({@code job -> job.setSpec(null)}) */
  public StatusItemStore(Consumer<T> dropSpec) {
    super(Cache::metaNamespaceKeyFunc);
    this.dropSpec = dropSpec;
  }

  @Override
  public T put(String key, T object) {
    dropSpec.accept(object);
    object.getMetadata().setManagedFields(null);
    return super.put(key, CompactModel.compact(object));
  }
}
