package io.gitfn.api.function;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.PodSecurityContext;
import io.fabric8.kubernetes.api.model.SecurityContext;
import io.fabric8.kubernetes.model.annotation.SpecReplicas;
import java.util.List;
import java.util.Map;

/** What a Function should be: field for field Kyma's v1alpha2 spec, with Kyma's validation rules. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class FunctionSpec {

  /** The most environment variables a Function may have; the CRD enforces it. */
  public static final int ENV_LIMIT = 1000;

  @Required
  @JsonPropertyDescription("The runtime of the Function: nodejs20 (deprecated), nodejs22, nodejs24 or python312.")
  private FunctionRuntime runtime;

  @JsonPropertyDescription("A full image reference used instead of the runtime's default base image.")
  private String runtimeImageOverride;

  @Required
  @ValidationRule(value = "has(self.gitRepository) && !has(self.inline) || !has(self.gitRepository) && has(self.inline)",
      message = "Use GitRepository or Inline source")
  @JsonPropertyDescription("The Function's source code: inline or from a Git repository.")
  private Source source;

  @JsonPropertyDescription("The Function Pod's security context. Fields left unset take gitfn's restricted defaults; "
      + "settings that break the Pod Security restricted level are refused.")
  private PodSecurityContext podSecurityContext;

  @JsonPropertyDescription("The Function container's security context. Fields left unset take gitfn's restricted "
      + "defaults; settings that break the Pod Security restricted level are refused.")
  private SecurityContext containerSecurityContext;

  // Without a bound the API server's CEL cost estimate rejects the rule (2.3x over budget on 1.36); Kyma has none.
  @Size(max = ENV_LIMIT)
  @ValidationRule(
      value = "(self.all(e, !(e.name in ['FUNC_RUNTIME','FUNC_HANDLER','FUNC_PORT','FUNC_HANDLER_SOURCE',"
          + "'FUNC_HANDLER_DEPENDENCIES','MOD_NAME','NODE_PATH','PYTHONPATH'])))",
      message = "Following envs are reserved and cannot be used: ['FUNC_RUNTIME','FUNC_HANDLER','FUNC_PORT',"
          + "'FUNC_HANDLER_SOURCE','FUNC_HANDLER_DEPENDENCIES','MOD_NAME','NODE_PATH','PYTHONPATH']")
  @JsonPropertyDescription("Environment variables of the Function's container.")
  private List<EnvVar> env;

  @JsonPropertyDescription("Resources requested by the Function and by its dependency install Job.")
  private ResourceConfiguration resourceConfiguration;

  @ValidationRule(value = "self.minReplicas <= self.maxReplicas",
      message = "minReplicas should be less than or equal maxReplicas")
  @JsonPropertyDescription("Deprecated. The bounds of a HorizontalPodAutoscaler that scales the Function on CPU.")
  private ScaleConfig scaleConfig;

  @Min(0)
  @Default("1")
  @SpecReplicas
  @JsonPropertyDescription("The exact number of the Function's Pods; 0 stops them and keeps everything else. "
      + "An HPA or external scaler (KEDA) that targets the Function's scale subresource drives it.")
  private Integer replicas;

  @ValidationRule(value = "!has(self.labels) && !has(self.annotations)",
      message = "Not supported: Use spec.labels and spec.annotations to label and/or annotate Function's Pods.")
  @JsonPropertyDescription("Deprecated and rejected: use spec.labels and spec.annotations.")
  private Template template;

  @JsonPropertyDescription("Secrets mounted read-only into the Function's container.")
  private List<SecretMount> secretMounts;

  // Kyma's length rule iterates over the map's keys although its message speaks of values; this one checks values.
  @ValidationRule(value = "!(self.exists(e, e.startsWith('serverless.kyma-project.io/')))",
      message = "Labels has key starting with serverless.kyma-project.io/ which is not allowed")
  @ValidationRule(value = "self.all(k, size(self[k]) < 64)", message = "Label value cannot be longer than 63")
  @JsonPropertyDescription("Labels of the Function's Pods.")
  private Map<String, String> labels;

  @ValidationRule(value = "!(self.exists(e, e.startsWith('serverless.kyma-project.io/')))",
      message = "Annotations has key starting with serverless.kyma-project.io/ which is not allowed")
  @ValidationRule(value = "!(self.exists(e, e=='proxy.istio.io/config'))",
      message = "Annotations has key proxy.istio.io/config which is not allowed")
  @JsonPropertyDescription("Annotations of the Function's Pods.")
  private Map<String, String> annotations;

  public FunctionRuntime getRuntime() {
    return runtime;
  }

  public void setRuntime(FunctionRuntime runtime) {
    this.runtime = runtime;
  }

  public String getRuntimeImageOverride() {
    return runtimeImageOverride;
  }

  public void setRuntimeImageOverride(String runtimeImageOverride) {
    this.runtimeImageOverride = runtimeImageOverride;
  }

  public Source getSource() {
    return source;
  }

  public void setSource(Source source) {
    this.source = source;
  }

  public PodSecurityContext getPodSecurityContext() {
    return podSecurityContext;
  }

  public void setPodSecurityContext(PodSecurityContext podSecurityContext) {
    this.podSecurityContext = podSecurityContext;
  }

  public SecurityContext getContainerSecurityContext() {
    return containerSecurityContext;
  }

  public void setContainerSecurityContext(SecurityContext containerSecurityContext) {
    this.containerSecurityContext = containerSecurityContext;
  }

  public List<EnvVar> getEnv() {
    return env;
  }

  public void setEnv(List<EnvVar> env) {
    this.env = env;
  }

  public ResourceConfiguration getResourceConfiguration() {
    return resourceConfiguration;
  }

  public void setResourceConfiguration(ResourceConfiguration resourceConfiguration) {
    this.resourceConfiguration = resourceConfiguration;
  }

  public ScaleConfig getScaleConfig() {
    return scaleConfig;
  }

  public void setScaleConfig(ScaleConfig scaleConfig) {
    this.scaleConfig = scaleConfig;
  }

  public Integer getReplicas() {
    return replicas;
  }

  public void setReplicas(Integer replicas) {
    this.replicas = replicas;
  }

  public Template getTemplate() {
    return template;
  }

  public void setTemplate(Template template) {
    this.template = template;
  }

  public List<SecretMount> getSecretMounts() {
    return secretMounts;
  }

  public void setSecretMounts(List<SecretMount> secretMounts) {
    this.secretMounts = secretMounts;
  }

  public Map<String, String> getLabels() {
    return labels;
  }

  public void setLabels(Map<String, String> labels) {
    this.labels = labels;
  }

  public Map<String, String> getAnnotations() {
    return annotations;
  }

  public void setAnnotations(Map<String, String> annotations) {
    this.annotations = annotations;
  }
}
