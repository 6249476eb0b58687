package io.gitfn.reconcile;

import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.gitfn.testbed.TestNamespace;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Every build Job created in a namespace while it watches, and how many ran at the same time: a Job the controller
 * cleans up later still counts as created.
 */
final class JobLog implements AutoCloseable {

  private final Set<String> uids = new LinkedHashSet<>();
  private final Set<String> names = new LinkedHashSet<>();
  private final Set<String> active = ConcurrentHashMap.newKeySet();
  private int mostActive;
  private final Watch watch;

  private JobLog(KubernetesClient client, String namespace) {
    this.watch = client.batch().v1().jobs().inNamespace(namespace).watch(new Watcher<>() {
      @Override
      public void eventReceived(Action action, Job job) {
        record(action, job);
      }

      @Override
      public void onClose(WatcherException cause) {
      }
    });
  }

  static JobLog watch(KubernetesClient client, TestNamespace ns) {
    return new JobLog(client, ns.name());
  }

  /** Watches {@code namespace}, which need not exist yet. */
  static JobLog watch(KubernetesClient client, String namespace) {
    return new JobLog(client, namespace);
  }

  private synchronized void record(Watcher.Action action, Job job) {
    String uid = job.getMetadata().getUid();
    uids.add(uid);
    names.add(job.getMetadata().getName());
    boolean finished = action == Watcher.Action.DELETED || finished(job);
    if (finished) {
      active.remove(uid);
    } else {
      active.add(uid);
    }
    mostActive = Math.max(mostActive, active.size());
  }

  /** Whether the Job succeeded or failed, as its status counts say. */
  static boolean finished(Job job) {
    return job.getStatus() != null && (positive(job.getStatus().getSucceeded()) || positive(job.getStatus().getFailed()));
  }

  private static boolean positive(Integer count) {
    return count != null && count > 0;
  }

  /** Names of the Jobs seen, in the order they first appeared. */
  synchronized List<String> names() {
    return new ArrayList<>(names);
  }

  /** UIDs of the Jobs seen: a Job deleted and made again under its name counts twice. */
  synchronized List<String> uids() {
    return new ArrayList<>(uids);
  }

  /** The most Jobs that were running at once. */
  synchronized int mostActive() {
    return mostActive;
  }

  @Override
  public void close() {
    watch.close();
  }
}
