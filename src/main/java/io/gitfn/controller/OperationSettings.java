package io.gitfn.controller;

import io.gitfn.controller.leader.LeaderElection;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * How the controller runs as a service: leader election, where health, metrics and the dashboard are served, and
 * how long a stop waits for running reconciles.
 *
 * @param leaderElection the Lease to elect a leader on; empty when this is the only instance
 * @param metricsHost and {@code metricsPort}: where {@code /healthz}, {@code /readyz} and {@code /metrics} are
 *     served; port 0 picks a free one
 * @param dashboardHost and {@code dashboardPort}: where the dashboard is served; port 0 picks a free one, and
 *     {@value #NO_DASHBOARD} serves none
 * @param dashboardActions whether the dashboard offers actions (reconcile, suspend, resume, pin, unpin) to whoever
 *     sends a bearer token the API server accepts and authorizes; off, it is read-only
 * @param shutdownTimeout how long a stop waits for running reconciles before it interrupts them
 */
public record OperationSettings(Optional<LeaderElection> leaderElection, String metricsHost, int metricsPort,
    String dashboardHost, int dashboardPort, boolean dashboardActions, Duration shutdownTimeout) {

  public static final int NO_DASHBOARD = -1;

  public static final Duration DEFAULT_SHUTDOWN_TIMEOUT = Duration.ofSeconds(20);

  public OperationSettings {
    Objects.requireNonNull(leaderElection, "leaderElection");
    Objects.requireNonNull(metricsHost, "metricsHost");
    if (metricsPort < 0 || metricsPort > 65535) {
      throw new IllegalArgumentException("--metrics-port must be between 0 and 65535, not " + metricsPort);
    }
    Objects.requireNonNull(dashboardHost, "dashboardHost");
    if (dashboardPort < NO_DASHBOARD || dashboardPort > 65535) {
      throw new IllegalArgumentException("--dashboard-port must be between 0 and 65535, or -1 for no dashboard, not "
          + dashboardPort);
    }
    if (dashboardActions && dashboardPort == NO_DASHBOARD) {
      throw new IllegalArgumentException("--dashboard-actions needs a dashboard: --dashboard-port is -1");
    }
    if (shutdownTimeout == null || shutdownTimeout.isNegative()) {
      throw new IllegalArgumentException("--shutdown-timeout must not be negative, was " + shutdownTimeout);
    }
  }

  /** One instance, health, metrics and the dashboard on free loopback ports: what tests and benchmarks start. */
  public static OperationSettings defaults() {
    return new OperationSettings(Optional.empty(), "127.0.0.1", 0, "127.0.0.1", 0, false, DEFAULT_SHUTDOWN_TIMEOUT);
  }

  public OperationSettings withLeaderElection(LeaderElection election) {
    return new OperationSettings(Optional.of(election), metricsHost, metricsPort, dashboardHost, dashboardPort,
        dashboardActions, shutdownTimeout);
  }

  public OperationSettings withShutdownTimeout(Duration timeout) {
    return new OperationSettings(leaderElection, metricsHost, metricsPort, dashboardHost, dashboardPort,
        dashboardActions, timeout);
  }

  /** The same, with the dashboard's actions on. */
  public OperationSettings withDashboardActions() {
    return new OperationSettings(leaderElection, metricsHost, metricsPort, dashboardHost, dashboardPort, true,
        shutdownTimeout);
  }

  /** Whether a dashboard is served. */
  public boolean dashboard() {
    return dashboardPort != NO_DASHBOARD;
  }
}
