package io.gitfn.controller.leader;

import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderCallbacks;
import io.javaoperatorsdk.operator.api.config.LeaderElectionConfiguration;
import io.javaoperatorsdk.operator.api.config.LeaderElectionConfigurationBuilder;
import java.time.ZonedDateTime;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether this instance leads, as the SDK's elector reports it, and the hand-over when it stops.
 *
 * <p>The SDK only starts event processing on the leader, and every side effect of gitfn (Git polling, fetches for
 * webhooks, Functions applied, build Jobs created) starts in a reconcile, so a standby does nothing but keep its
 * caches warm. A leader that loses the lease while running, though, would go on polling what it tracks: losing it
 * is fatal, and the process stops (the way controller-runtime does), leaving a clean start to the next leader.
 *
 * <p>The SDK's elector does not release the Lease on stop; {@link #release} does, so the standby takes over within
 * its retry period instead of waiting for the lease to expire.
 */
public final class Leadership {

  private static final Logger log = LoggerFactory.getLogger(Leadership.class);

  private final Optional<LeaderElection> election;
  private final Optional<LeaderPod> pod;
  private final AtomicBoolean leading;
  private final AtomicBoolean stopping = new AtomicBoolean();
  private final Runnable lost;

  /**
   * @param pod this instance's Pod, labelled while it leads so that the webhook Service routes to it
   * @param lost runs when the lease is lost while the controller is not stopping
   */
  public Leadership(Optional<LeaderElection> election, Optional<LeaderPod> pod, Runnable lost) {
    this.election = election;
    this.pod = pod;
    this.leading = new AtomicBoolean(election.isEmpty()); // without an election, this instance is the only one
    this.lost = lost;
  }

  /** Whether this instance may run side effects now. */
  public boolean leading() {
    return leading.get();
  }

  /** The SDK's configuration, when the election is on. */
  public Optional<LeaderElectionConfiguration> configuration() {
    return election.map(e -> LeaderElectionConfigurationBuilder.aLeaderElectionConfiguration(e.leaseName())
        .withLeaseNamespace(e.namespace())
        .withIdentity(e.identity())
        .withLeaseDuration(LeaderElection.LEASE_DURATION)
        .withRenewDeadline(LeaderElection.RENEW_DEADLINE)
        .withRetryPeriod(LeaderElection.RETRY_PERIOD)
        // The SDK would System.exit(1) from the elector's thread, also during a graceful stop; gitfn decides.
        .withExitOnStopLeading(false)
        .withLeaderCallbacks(new LeaderCallbacks(this::started, this::stopped, this::newLeader))
        .build());
  }

  private void started() {
    leading.set(true);
    pod.ifPresent(LeaderPod::mark);
    log.info("leading: this instance ({}) holds Lease {}/{}", identity(), namespace(), leaseName());
  }

  private void stopped() {
    leading.set(false);
    pod.ifPresent(LeaderPod::unmark);
    if (stopping.get()) {
      return;
    }
    log.error("lost Lease {}/{}: this instance ({}) stops, so that only the new leader acts", namespace(),
        leaseName(), identity());
    lost.run();
  }

  private void newLeader(String holder) {
    if (holder != null && !holder.isEmpty() && !holder.equals(identity())) {
      log.info("standby: {} leads (Lease {}/{})", holder, namespace(), leaseName());
    }
  }

  /** The controller is stopping: losing the lease from now on is expected. */
  public void stopping() {
    stopping.set(true);
  }

  /**
   * Gives the Lease up if this instance holds it: the holder is cleared, so the standby's next try takes it. The
   * update is conditional on the version read, so it never clears a lease another instance took meanwhile.
   */
  public void release(KubernetesClient client) {
    if (election.isEmpty()) {
      return;
    }
    LeaderElection e = election.get();
    pod.ifPresent(LeaderPod::unmark); // webhooks go to the next leader only, once it holds the Lease
    try {
      Lease lease = client.leases().inNamespace(e.namespace()).withName(e.leaseName()).get();
      if (lease == null || lease.getSpec() == null || !e.identity().equals(lease.getSpec().getHolderIdentity())) {
        return;
      }
      lease.getSpec().setHolderIdentity("");
      lease.getSpec().setLeaseDurationSeconds(1); // as client-go releases: electors of any kind may take it at once
      lease.getSpec().setRenewTime(ZonedDateTime.now());
      client.resource(lease).update(); // carries the resourceVersion read: a conflict means someone else holds it
      leading.set(false);
      log.info("released Lease {}/{}", e.namespace(), e.leaseName());
    } catch (KubernetesClientException ex) {
      log.warn("cannot release Lease {}/{}; the standby takes over when it expires in {} s: {}", e.namespace(),
          e.leaseName(), LeaderElection.LEASE_DURATION.toSeconds(), ex.getMessage());
    }
  }

  private String identity() {
    return election.map(LeaderElection::identity).orElse("");
  }

  private String namespace() {
    return election.map(LeaderElection::namespace).orElse("");
  }

  private String leaseName() {
    return election.map(LeaderElection::leaseName).orElse("");
  }
}
