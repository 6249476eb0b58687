package io.gitfn.reconcile;

import io.gitfn.manifest.AllowedKinds;
import java.time.Duration;
import java.util.Objects;
import java.util.Set;

/**
 * What an operator configures once for the whole controller.
 *
 * @param knownHosts SSH host keys trusted for every repository whose Secret brings none ({@code known_hosts} format)
 * @param allowedTargetNamespaces namespaces other than its own that a FunctionRepository may write Functions into
 * @param functionSourceInterval how often the Git source of a Function is checked without a webhook
 * @param shard the FunctionRepositories and Functions this instance reconciles ({@code --shard-selector})
 * @param instance this instance's name, as its Events' source host and its Lease identity show it
 * @param gitHosts the hosts gitfn may fetch from ({@code --allowed-git-host}); empty allows every host
 * @param clusterName the cluster's name in commit statuses' contexts ({@code --cluster-name}), so that several
 *     clusters can report on one commit
 * @param autoRollback whether a version that fails to roll out is rolled back to the last that ran
 *     ({@code --auto-rollback}); a Function's {@code gitfn.io/auto-rollback} annotation wins
 * @param allowedKinds the kinds a FunctionRepository may declare beside Functions ({@code --allowed-kind})
 * @param requireServiceAccount whether a FunctionRepository must name the ServiceAccount it applies as
 *     ({@code --require-service-account}), so that no tenant writes with the controller's own rights
 */
public record ControllerSettings(String knownHosts, Set<String> allowedTargetNamespaces,
    Duration functionSourceInterval, ShardSelector shard, String instance,
    GitHosts gitHosts, String clusterName, boolean autoRollback, AllowedKinds allowedKinds,
    boolean requireServiceAccount) {

  /** Kyma checks every 5 minutes, which its users find too slow (kyma#12527); a check costs one ls-remote. */
  public static final Duration DEFAULT_FUNCTION_SOURCE_INTERVAL = Duration.ofMinutes(1);
  public static final String DEFAULT_INSTANCE = "gitfn";
  public static final String DEFAULT_CLUSTER_NAME = "default";

  public ControllerSettings {
    knownHosts = knownHosts == null ? "" : knownHosts;
    allowedTargetNamespaces = Set.copyOf(allowedTargetNamespaces);
    if (functionSourceInterval == null || functionSourceInterval.isNegative() || functionSourceInterval.isZero()) {
      throw new IllegalArgumentException("functionSourceInterval must be positive, was " + functionSourceInterval);
    }
    shard = shard == null ? ShardSelector.ALL : shard;
    instance = instance == null || instance.isBlank() ? DEFAULT_INSTANCE : instance;
    gitHosts = gitHosts == null ? GitHosts.ANY : gitHosts;
    allowedKinds = allowedKinds == null ? AllowedKinds.DEFAULT : allowedKinds;
    clusterName = clusterName == null || clusterName.isBlank() ? DEFAULT_CLUSTER_NAME : clusterName.strip();
    if (!clusterName.matches("[A-Za-z0-9][A-Za-z0-9._-]{0,62}")) {
      throw new IllegalArgumentException("--cluster-name `" + clusterName + "` must be 1 to 63 letters, digits, dots,"
          + " dashes or underscores, starting with a letter or digit");
    }
  }

  public ControllerSettings(String knownHosts, Set<String> allowedTargetNamespaces, Duration functionSourceInterval) {
    this(knownHosts, allowedTargetNamespaces, functionSourceInterval, ShardSelector.ALL,
        DEFAULT_INSTANCE, GitHosts.ANY, DEFAULT_CLUSTER_NAME, true, AllowedKinds.DEFAULT, false);
  }

  public static ControllerSettings defaults() {
    return new ControllerSettings("", Set.of(), DEFAULT_FUNCTION_SOURCE_INTERVAL);
  }

  public ControllerSettings withFunctionSourceInterval(Duration interval) {
    return new ControllerSettings(knownHosts, allowedTargetNamespaces, interval, shard, instance,
        gitHosts, clusterName, autoRollback, allowedKinds,
        requireServiceAccount);
  }

  /** Reconciles only what {@code selector} matches, as the instance named {@code name}. */
  public ControllerSettings withShard(ShardSelector selector, String name) {
    return new ControllerSettings(knownHosts, allowedTargetNamespaces, functionSourceInterval,
        Objects.requireNonNull(selector, "selector"), name, gitHosts, clusterName, autoRollback, allowedKinds,
        requireServiceAccount);
  }

  public ControllerSettings withInstance(String name) {
    return new ControllerSettings(knownHosts, allowedTargetNamespaces, functionSourceInterval, shard,
        name, gitHosts, clusterName, autoRollback, allowedKinds,
        requireServiceAccount);
  }

  /** Fetches only from hosts {@code hosts} allows. */
  public ControllerSettings withGitHosts(GitHosts hosts) {
    return new ControllerSettings(knownHosts, allowedTargetNamespaces, functionSourceInterval, shard,
        instance, hosts, clusterName, autoRollback, allowedKinds,
        requireServiceAccount);
  }

  /** Names the cluster in commit statuses' contexts. */
  public ControllerSettings withClusterName(String name) {
    return new ControllerSettings(knownHosts, allowedTargetNamespaces, functionSourceInterval, shard,
        instance, gitHosts, name, autoRollback, allowedKinds,
        requireServiceAccount);
  }

  /** Turns automatic rollback on or off for Functions without a {@code gitfn.io/auto-rollback} annotation. */
  public ControllerSettings withAutoRollback(boolean enabled) {
    return new ControllerSettings(knownHosts, allowedTargetNamespaces, functionSourceInterval, shard,
        instance, gitHosts, clusterName, enabled, allowedKinds,
        requireServiceAccount);
  }

  /** Lets repositories declare {@code kinds} beside their Functions; other kinds are notices. */
  public ControllerSettings withAllowedKinds(AllowedKinds kinds) {
    return new ControllerSettings(knownHosts, allowedTargetNamespaces, functionSourceInterval, shard,
        instance, gitHosts, clusterName, autoRollback, kinds, requireServiceAccount);
  }

  /** Refuses FunctionRepositories that name no ServiceAccount to apply as. */
  public ControllerSettings withRequiredServiceAccount(boolean required) {
    return new ControllerSettings(knownHosts, allowedTargetNamespaces, functionSourceInterval, shard,
        instance, gitHosts, clusterName, autoRollback, allowedKinds, required);
  }
}
