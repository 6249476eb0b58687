package io.gitfn.workload;

/**
 * How gitfn runs Functions.
 *
 * @param traceCollectorEndpoint the value of {@code TRACE_COLLECTOR_ENDPOINT} (§5.4), the OTLP/HTTP URL the runtimes
 *     send spans to; empty for none, when the variable is left out and no span leaves a Pod
 * @param publisherProxyAddress the value of {@code PUBLISHER_PROXY_ADDRESS} (§5.4)
 * @param defaultProfile the function resource profile used when a Function names none
 * @param serviceAccountName the runtime Pods' ServiceAccount, or null for the namespace's default
 * @param preStopSeconds how long a terminating Pod keeps serving while endpoints stop sending to it
 * @param terminationGracePeriodSeconds the Pod's grace period; it must exceed preStopSeconds
 * @param revisionHistoryLimit ReplicaSets kept for {@code kubectl rollout undo}; Kyma keeps none
 * @param targetCpuUtilizationPercentage the HPA's CPU target (§4.6)
 * @param imagePullSecret the Secret, in each Function's namespace, that the kubelet pulls the Function's image with:
 *     the dockerconfigjson Secret the build Job pushes with (Kyma puts it on its Functions' ServiceAccount); null for
 *     none. A missing Secret only costs the kubelet a warning: it then pulls without credentials.
 * @param functionPresets the figures of the Function profiles XS to XL: Kyma's, or the operator's
 *     ({@link FunctionResourcesConfig}, {@code --resources-config})
 */
public record WorkloadSettings(
    String traceCollectorEndpoint,
    String publisherProxyAddress,
    String defaultProfile,
    String serviceAccountName,
    int preStopSeconds,
    long terminationGracePeriodSeconds,
    int revisionHistoryLimit,
    int targetCpuUtilizationPercentage,
    String imagePullSecret,
    ResourcePresets functionPresets) {

  /** The build's push Secret, {@code --registry-secret}'s default. */
  public static final String DEFAULT_IMAGE_PULL_SECRET = "serverless-registry-config-default";

  public WorkloadSettings {
    if (functionPresets == null) {
      throw new IllegalArgumentException("functionPresets must be given");
    }
    if (!FunctionProfiles.NAMES.contains(defaultProfile)) {
      throw new IllegalArgumentException(
          "defaultProfile `" + defaultProfile + "` is not one of " + String.join(", ", FunctionProfiles.NAMES));
    }
    if (preStopSeconds < 0) {
      throw new IllegalArgumentException("preStopSeconds must not be negative");
    }
    if (terminationGracePeriodSeconds <= preStopSeconds) {
      throw new IllegalArgumentException("terminationGracePeriodSeconds (" + terminationGracePeriodSeconds
          + ") must exceed preStopSeconds (" + preStopSeconds + "), or the Pod is killed while draining");
    }
    if (revisionHistoryLimit < 1) {
      throw new IllegalArgumentException("revisionHistoryLimit must be at least 1");
    }
    if (targetCpuUtilizationPercentage < 1) {
      throw new IllegalArgumentException("targetCpuUtilizationPercentage must be at least 1");
    }
  }

  /**
   * Kyma's endpoints and defaults (§4.6), a 5 s drain and a 30 s grace period. No trace collector: Kyma's operator
   * sets one only where Kyma's telemetry runs, and a collector that cannot be reached would hold every traced call
   * of a Function while its exporter retries.
   */
  public static WorkloadSettings defaults() {
    return new WorkloadSettings(
        "",
        "http://eventing-publisher-proxy.kyma-system.svc.cluster.local/publish",
        FunctionProfiles.DEFAULT, null, 5, 30, 5, 50, DEFAULT_IMAGE_PULL_SECRET, FunctionProfiles.KYMA);
  }

  public WorkloadSettings withTraceCollectorEndpoint(String endpoint) {
    return new WorkloadSettings(endpoint == null ? "" : endpoint.strip(), publisherProxyAddress, defaultProfile,
        serviceAccountName, preStopSeconds, terminationGracePeriodSeconds, revisionHistoryLimit,
        targetCpuUtilizationPercentage, imagePullSecret, functionPresets);
  }

  public WorkloadSettings withServiceAccountName(String name) {
    return new WorkloadSettings(traceCollectorEndpoint, publisherProxyAddress, defaultProfile, name, preStopSeconds,
        terminationGracePeriodSeconds, revisionHistoryLimit, targetCpuUtilizationPercentage, imagePullSecret,
        functionPresets);
  }

  public WorkloadSettings withImagePullSecret(String secret) {
    return new WorkloadSettings(traceCollectorEndpoint, publisherProxyAddress, defaultProfile, serviceAccountName,
        preStopSeconds, terminationGracePeriodSeconds, revisionHistoryLimit, targetCpuUtilizationPercentage, secret,
        functionPresets);
  }

  /** The operator's Function profiles: {@code config}'s presets and, when it names one, its default preset. */
  public WorkloadSettings withFunctionResources(FunctionResourcesConfig config) {
    return new WorkloadSettings(traceCollectorEndpoint, publisherProxyAddress,
        config.defaultPreset().orElse(defaultProfile), serviceAccountName, preStopSeconds,
        terminationGracePeriodSeconds, revisionHistoryLimit, targetCpuUtilizationPercentage, imagePullSecret,
        config.presets());
  }
}
