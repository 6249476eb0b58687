package io.gitfn.controller.cache;

import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.informers.cache.BasicItemStore;
import io.fabric8.kubernetes.client.informers.cache.Cache;

/**
 * The build Job informer's cache: a Job's metadata and status, without its spec or managedFields. The controller
 * reads only the name, labels, annotations and status of a cached Job; its pod template (the builder's container, its
 * arguments, volumes and mounts) is most of its weight, and there is one Job per Function.
 */
public final class JobStatusItemStore extends BasicItemStore<Job> {

  public JobStatusItemStore() {
    super(Cache::metaNamespaceKeyFunc);
  }

  @Override
  public Job put(String key, Job job) {
    job.setSpec(null);
    job.getMetadata().setManagedFields(null);
    return super.put(key, CompactModel.compact(job));
  }
}
