package io.gitfn.controller.cache;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntry;
import io.fabric8.kubernetes.client.informers.cache.BasicItemStore;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import io.gitfn.api.FieldManagers;
import java.util.ArrayList;
import java.util.List;

/**
 * An informer cache for the Function's children that keeps, of {@code metadata.managedFields}, only this
 * controller's own entry: server-side-apply matching compares what this manager applied and nothing else, while
 * the controller-manager's status entries of a thousand Deployments would fill the heap for nothing. That entry's
 * field tree is {@linkplain CompactModel#shared shared} between the children that have the same, and the objects
 * are {@linkplain CompactModel compacted} too.
 */
public final class OwnFieldsItemStore<V extends HasMetadata> extends BasicItemStore<V> {

  public OwnFieldsItemStore() {
    super(Cache::metaNamespaceKeyFunc);
  }

  @Override
  public V put(String key, V object) {
    List<ManagedFieldsEntry> entries = object.getMetadata().getManagedFields();
    if (entries != null) {
      List<ManagedFieldsEntry> own = new ArrayList<>(1);
      for (ManagedFieldsEntry entry : entries) {
        if (FieldManagers.FUNCTION_CONTROLLER.equals(entry.getManager())) {
          entry.setFieldsV1(CompactModel.shared(entry.getFieldsV1()));
          own.add(entry);
        }
      }
      object.getMetadata().setManagedFields(own);
    }
    return super.put(key, CompactModel.compact(object));
  }

}
