package io.gitfn.reconcile.function;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.gitfn.api.Labels;
import io.gitfn.api.function.Function;
import io.gitfn.build.DependencyInstallJob;
import io.gitfn.controller.cache.ListPages;
import io.gitfn.controller.cache.StatusItemStore;
import io.gitfn.reconcile.ShardSelector;
import io.javaoperatorsdk.operator.api.config.informer.InformerEventSourceConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.informer.InformerEventSource;
import io.javaoperatorsdk.operator.processing.event.source.informer.Mappers;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The Function controller's informers of install Jobs and of their Pods, narrowed to this shard (both carry their
 * Function's labels, shard label included). A Job or Pod that moves wakes every Function that waits for it.
 */
final class InstallInformers {

  private InstallInformers() {}

  /** Install Jobs, metadata and status only; a Job wakes its owners, which are all the Functions that share it. */
  static InformerEventSource<Job, Function> jobs(EventSourceContext<Function> context, ShardSelector shard) {
    return new InformerEventSource<>(InformerEventSourceConfiguration.from(Job.class, Function.class)
        .withName("job")
        .withLabelSelector(shard.childSelector())
        .withItemStore(new StatusItemStore<Job>(job -> job.setSpec(null)))
        .withInformerListLimit(ListPages.SIZE)
        .withSecondaryToPrimaryMapper(Mappers.fromOwnerReferences(Function.class))
        .build(), context);
  }

  /**
   * Install Pods, metadata and status only: a Pod says its dependency image is pushed a second or more before its
   * Job does ({@link InstallPods}). A Pod's owner is its Job, so it wakes the Job's owners, as {@code jobs} caches
   * them.
   */
  static InformerEventSource<Pod, Function> pods(EventSourceContext<Function> context, ShardSelector shard,
      InformerEventSource<Job, Function> jobs) {
    return new InformerEventSource<>(InformerEventSourceConfiguration.from(Pod.class, Function.class)
        .withName("install-pod")
        .withLabelSelector(shard.childSelector() + "," + Labels.RESOURCE + "=" + DependencyInstallJob.RESOURCE)
        .withItemStore(new StatusItemStore<Pod>(pod -> pod.setSpec(null)))
        .withInformerListLimit(ListPages.SIZE)
        .withSecondaryToPrimaryMapper(pod -> waitingFor(pod, id -> jobs.get(id)))
        .build(), context);
  }

  /** Where the install Jobs are found by namespace and name. */
  interface JobLookup {
    Optional<Job> get(ResourceID id);
  }

  /** The Functions that own the Job {@code pod} belongs to; none while the Job is not cached (its event follows). */
  static Set<ResourceID> waitingFor(Pod pod, JobLookup jobs) {
    String namespace = pod.getMetadata().getNamespace();
    return Stream.ofNullable(pod.getMetadata().getOwnerReferences()).flatMap(List::stream)
        .filter(ref -> "Job".equals(ref.getKind()))
        .flatMap(ref -> jobs.get(new ResourceID(ref.getName(), namespace)).stream())
        .flatMap(job -> Stream.ofNullable(job.getMetadata().getOwnerReferences()).flatMap(List::stream))
        .filter(ref -> HasMetadata.getKind(Function.class).equals(ref.getKind()))
        .map(ref -> new ResourceID(ref.getName(), namespace))
        .collect(Collectors.toSet());
  }
}
