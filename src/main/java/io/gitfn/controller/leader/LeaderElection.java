package io.gitfn.controller.leader;

import java.time.Duration;
import java.util.Objects;

/**
 * Where the controller's instances elect their leader: a {@code coordination.k8s.io} Lease.
 *
 * <p>The timings bound how long the instances are without a leader after the leader dies without a word ({@code
 * kill -9}, a lost node): the standby waits until the lease has not been renewed for {@link #LEASE_DURATION} (10 s),
 * and tries every {@link #RETRY_PERIOD} (2 s), so it leads at most about 12 s later, inside the 15 s gitfn promises.
 * The leader gives up when it cannot renew for {@link #RENEW_DEADLINE} (8 s), 2 s before anyone else may take the
 * lease, so two leaders never overlap. Kubernetes' own controllers use 15/10/2 s; gitfn's failover target is
 * tighter, and the cost is one Lease update every 2 s. A leader that stops gracefully releases the lease, and the
 * standby takes over at its next try.
 *
 * @param namespace the Lease's namespace
 * @param leaseName the Lease's name, {@code --leader-election-id}
 * @param identity this instance's name in the Lease's {@code holderIdentity}; unique per process
 */
public record LeaderElection(String namespace, String leaseName, String identity) {

  public static final String DEFAULT_LEASE_NAME = "gitfn-controller";
  public static final Duration LEASE_DURATION = Duration.ofSeconds(10);
  public static final Duration RENEW_DEADLINE = Duration.ofSeconds(8);
  public static final Duration RETRY_PERIOD = Duration.ofSeconds(2);

  public LeaderElection {
    requireName("--leader-election-namespace", namespace);
    requireName("--leader-election-id", leaseName);
    Objects.requireNonNull(identity, "identity");
    if (identity.isBlank()) {
      throw new IllegalArgumentException("the leader election identity must not be blank");
    }
  }

  private static void requireName(String flag, String value) {
    if (value == null || !value.matches("[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?")) {
      throw new IllegalArgumentException(flag + " `" + value + "` is not a Kubernetes object name"
          + " (lower-case letters, digits, '-' and '.', at most 253)");
    }
  }
}
