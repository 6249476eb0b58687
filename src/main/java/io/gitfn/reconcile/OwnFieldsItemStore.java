package io.gitfn.reconcile;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.informers.cache.BasicItemStore;
import io.fabric8.kubernetes.client.informers.cache.Cache;

/**
 * An informer cache for the Function's children that keeps, of {@code metadata.managedFields}, only this
 * controller's own entry: server-side-apply matching compares what this manager applied and nothing else, while
 * the controller-manager's status entries of a thousand Deployments would fill the heap for nothing. The objects
 * are {@linkplain CompactModel compacted} too.
 */
public final class OwnFieldsItemStore<V extends HasMetadata> extends BasicItemStore<V> {

  public OwnFieldsItemStore() {
    super(Cache::metaNamespaceKeyFunc);
  }

  @Override
  public V put(String key, V object) {
    if (object.getMetadata().getManagedFields() != null) {
      object.getMetadata().setManagedFields(object.getMetadata().getManagedFields().stream()
          .filter(entry -> FunctionReconciler.FIELD_MANAGER.equals(entry.getManager())).toList());
    }
    return super.put(key, CompactModel.compact(object));
  }
}
