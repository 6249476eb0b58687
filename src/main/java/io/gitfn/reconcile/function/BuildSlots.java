package io.gitfn.reconcile.function;

import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.gitfn.api.Labels;
import io.gitfn.build.BuildQueue;
import java.util.Objects;
import java.util.function.Supplier;
import java.util.stream.Stream;

/**
 * The cluster-wide {@link BuildQueue}, which lives in memory, counted from the cluster before it grants a slot: the
 * first admission after a start counts every build Job the Job informer holds that still runs. Without that, a
 * restarted controller would hand slots to the Functions it reconciles first while the running Jobs of Functions
 * not reconciled yet went uncounted, and overrun the cap.
 *
 * <p>Owned by the composition root and shared by every Function pass. What a restart costs: the order in which
 * Functions waited (the new queue is in the order of their first passes); no slot is lost or handed out twice.
 */
public final class BuildSlots {

  private final BuildQueue queue;
  private volatile Supplier<Stream<Job>> jobs;
  private boolean counted;

  public BuildSlots(BuildQueue queue) {
    this.queue = queue;
  }

  /** Where the running Jobs are counted from: the Function controller's Job informer, once it exists. */
  void countFrom(Supplier<Stream<Job>> informer) {
    this.jobs = informer;
  }

  /** The queue, counted from the Job informer first if it has not been. */
  BuildQueue queue() {
    countOnce();
    return queue;
  }

  private synchronized void countOnce() {
    if (counted) {
      return;
    }
    Supplier<Stream<Job>> informer = Objects.requireNonNull(jobs, "no Job informer to count builds from yet");
    informer.get().filter(job -> !BuildJobs.succeeded(job) && !BuildJobs.failed(job)).forEach(job -> {
      String function = job.getMetadata().getLabels() == null ? null
          : job.getMetadata().getLabels().get(Labels.FUNCTION_NAME);
      if (function != null) {
        queue.running(job.getMetadata().getNamespace() + "/" + function,
            job.getMetadata().getNamespace() + "/" + job.getMetadata().getName());
      }
    });
    counted = true;
  }

  /** A deleted Function: its place in the queue and the slots of its Jobs go. */
  void forget(String owner) {
    queue.forget(owner);
  }
}
