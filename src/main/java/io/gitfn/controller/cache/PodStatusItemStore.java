package io.gitfn.controller.cache;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.informers.cache.BasicItemStore;
import io.fabric8.kubernetes.client.informers.cache.Cache;

/**
 * The install Pod informer's cache: a Pod's metadata and status, without its spec or managedFields. The controller
 * reads only whether a Pod's pack container ended and when; the spec (the install script, the pack's arguments,
 * volumes and mounts) is most of its weight, and a finished install Job keeps its Pod until the Job goes.
 */
public final class PodStatusItemStore extends BasicItemStore<Pod> {

  public PodStatusItemStore() {
    super(Cache::metaNamespaceKeyFunc);
  }

  @Override
  public Pod put(String key, Pod pod) {
    pod.setSpec(null);
    pod.getMetadata().setManagedFields(null);
    return super.put(key, CompactModel.compact(pod));
  }
}
