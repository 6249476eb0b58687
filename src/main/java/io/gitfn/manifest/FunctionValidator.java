package io.gitfn.manifest;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.gitfn.api.Annotations;
import io.gitfn.api.KubernetesNames;
import io.gitfn.api.function.BuildMode;
import io.gitfn.api.function.Function;
import io.gitfn.api.function.FunctionSpec;
import io.gitfn.api.function.GitRepositorySource;
import io.gitfn.api.function.InlineSource;
import io.gitfn.api.function.RepositoryAuth;
import io.gitfn.api.function.ResourceConfiguration;
import io.gitfn.api.function.ScaleConfig;
import io.gitfn.api.function.SecretMount;
import io.gitfn.api.function.Source;
import io.gitfn.api.function.Template;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Kyma's rules for a Function: the CRD's schema and CEL rules, the controller's validation (reference §1.7),
 * the name rule of the webhook era, and gitfn's inline size limit. It reports every broken rule, not the first.
 */
final class FunctionValidator {

  static final List<String> RESERVED_ENV = List.of("FUNC_RUNTIME", "FUNC_HANDLER", "FUNC_PORT",
      "FUNC_HANDLER_SOURCE", "FUNC_HANDLER_DEPENDENCIES", "MOD_NAME", "NODE_PATH", "PYTHONPATH");
  static final String RESERVED_PREFIX = "serverless.kyma-project.io/";
  static final String ISTIO_PROXY_CONFIG = "proxy.istio.io/config";

  // What Kyma's controller accepts: a URL with a host and a path, or git@host:path.
  private static final Pattern URL_FORM = Pattern.compile("(https?|ssh|git)://[^\\s/]+/\\S+");
  private static final Pattern SCP_FORM = Pattern.compile("[\\w.-]+@[\\w.-]+:[^\\s/]\\S*");
  private static final Pattern CREDENTIALS_IN_URL = Pattern.compile("[a-z]+://[^/@\\s]*:[^/@\\s]*@.*");

  private final long maxSourceBytes;
  private final boolean inInfraRepository;
  /** What Kubernetes allows all of one object's annotations together (apimachinery's TotalAnnotationSizeLimitB). */
  static final int MAX_ANNOTATION_BYTES = 256 * 1024;
  /** An env value a Function could need; larger data belongs in a ConfigMap or Secret it mounts. */
  static final int MAX_ENV_VALUE_BYTES = 32 * 1024;
  /** The most env entries; the CRD says the same (its CEL rules need a bound). */
  static final int MAX_ENV = 1000;
  /** A Function as applied: well below etcd's 1.5 MiB per object, with room for status and managed fields. */
  static final int MAX_OBJECT_BYTES = 1024 * 1024;
  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * @param inInfraRepository whether the Functions checked are read from an infra repository, where a Git URL may be
   *     relative to it ({@link RelativeGitUrl}); one that reached the cluster otherwise may not say so
   */
  FunctionValidator(long maxSourceBytes, boolean inInfraRepository) {
    this.maxSourceBytes = maxSourceBytes;
    this.inInfraRepository = inInfraRepository;
  }

  List<Violation> check(Function function) {
    List<Violation> violations = new ArrayList<>();
    checkMetadata(function.getMetadata(), violations);
    FunctionSpec spec = function.getSpec();
    if (spec == null) {
      violations.add(new Violation("spec", "is required"));
      return violations;
    }
    if (spec.getRuntime() == null) {
      violations.add(new Violation("spec.runtime", "is required: one of " + Runtimes.names()));
    }
    checkImageOverride(spec.getRuntimeImageOverride(), violations);
    checkSource(spec, violations);
    RestrictedPodSecurity.check(spec.getPodSecurityContext(), spec.getContainerSecurityContext(), violations);
    checkEnv(spec.getEnv(), violations);
    checkResources(spec.getResourceConfiguration(), violations);
    checkScaling(spec, violations);
    checkTemplate(spec.getTemplate(), violations);
    checkSecretMounts(spec.getSecretMounts(), violations);
    checkLabels(spec.getLabels(), "spec.labels", true, violations);
    checkAnnotations(spec.getAnnotations(), "spec.annotations", true, violations);
    checkSize(function, violations);
    return violations;
  }

  private static void checkImageOverride(String image, List<Violation> violations) {
    if (image != null && !image.isEmpty() && !ImageNames.isReference(image)) {
      violations.add(new Violation("spec.runtimeImageOverride", "is not an image reference such as"
          + " registry.example.com/team/node:22 (letters, digits and . _ / : @ + -, at most 255)"));
    }
  }

  private static void checkSize(Function function, List<Violation> violations) {
    try {
      int size = JSON.writeValueAsBytes(function).length;
      if (size > MAX_OBJECT_BYTES) {
        violations.add(new Violation("metadata.name", "the Function is " + size + " bytes as applied, more than"
            + " the " + MAX_OBJECT_BYTES + " a Function may be; move large data to a ConfigMap or Secret"));
      }
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a Function read from YAML writes as JSON", e);
    }
  }

  private void checkMetadata(ObjectMeta metadata, List<Violation> violations) {
    String name = metadata == null ? null : metadata.getName();
    if (name == null || name.isBlank()) {
      violations.add(new Violation("metadata.name", "is required"));
    } else {
      KubernetesNames.functionName(name).ifPresent(m -> violations.add(new Violation("metadata.name", m)));
    }
    if (metadata != null && metadata.getNamespace() != null && !metadata.getNamespace().isEmpty()) {
      // It becomes part of names and, in gitfn up, of file paths.
      KubernetesNames.namespace(metadata.getNamespace())
          .ifPresent(m -> violations.add(new Violation("metadata.namespace", m)));
    }
    if (metadata != null) {
      checkLabels(metadata.getLabels(), "metadata.labels", false, violations);
      checkAnnotations(metadata.getAnnotations(), "metadata.annotations", false, violations);
      checkBuildMode(metadata.getAnnotations(), violations);
    }
  }

  private void checkSource(FunctionSpec spec, List<Violation> violations) {
    Source source = spec.getSource();
    if (source == null || (source.getInline() == null) == (source.getGitRepository() == null)) {
      violations.add(new Violation("spec.source", "set exactly one of inline or gitRepository"));
    }
    if (source == null) {
      return;
    }
    InlineSource inline = source.getInline();
    if (inline != null) {
      checkInline(inline, spec, violations);
    }
    GitRepositorySource git = source.getGitRepository();
    if (git != null) {
      checkGit(git, violations);
    }
  }

  private void checkInline(InlineSource inline, FunctionSpec spec, List<Violation> violations) {
    if (inline.getSource() == null || inline.getSource().isEmpty()) {
      violations.add(new Violation("spec.source.inline.source", "is required: the handler's code"));
    }
    String dependencies = inline.getDependencies();
    if (Runtimes.isNode(spec.getRuntime()) && dependencies != null && !dependencies.isBlank()) {
      String trimmed = dependencies.strip();
      if (!trimmed.startsWith("{") || !trimmed.endsWith("}")) {
        violations.add(new Violation("spec.source.inline.dependencies",
            "Node.js dependencies must be a package.json object, starting with { and ending with }"));
      }
    }
    long bytes = bytes(inline.getSource()) + bytes(dependencies);
    if (bytes > maxSourceBytes) {
      violations.add(new Violation("spec.source.inline.source", "source and dependencies are " + bytes
          + " bytes, over the limit of " + maxSourceBytes + " bytes (they go into one ConfigMap, at most 1 MiB);"
          + " make them smaller or move the code to a gitRepository source"));
    }
  }

  private void checkGit(GitRepositorySource git, List<Violation> violations) {
    String at = "spec.source.gitRepository";
    String url = git.getUrl();
    if (url == null || url.isBlank()) {
      violations.add(new Violation(at + ".url", "is required"));
    } else if (CREDENTIALS_IN_URL.matcher(url).matches()) {
      violations.add(new Violation(at + ".url",
          "holds credentials; remove them from the URL and name a Secret in auth.secretName"));
    } else if (RelativeGitUrl.isRelative(url)) {
      if (!inInfraRepository) {
        violations.add(new Violation(at + ".url", "`" + url.strip() + "` is relative: a relative URL is only for"
            + " Functions in an infra repository, where gitfn makes it absolute; give the repository's absolute URL"));
      } else {
        RelativeGitUrl.problem(url).ifPresent(problem -> violations.add(new Violation(at + ".url", problem)));
      }
    } else if (url.startsWith("/") || url.startsWith("file:")) {
      violations.add(new Violation(at + ".url", "`" + url + "` is a path on one machine, which the controller"
          + " cannot read: use https://host/path, ssh://host/path, git://host/path or git@host:path"
          + (inInfraRepository ? ", or " + RelativeGitUrl.FORMS : "")));
    } else if (!URL_FORM.matcher(url).matches() && !SCP_FORM.matcher(url).matches()) {
      violations.add(new Violation(at + ".url", "`" + url + "` is not a Git URL: use https://host/path,"
          + " ssh://host/path, git://host/path or git@host:path"
          + (inInfraRepository ? ", or " + RelativeGitUrl.FORMS : "")));
    } else if (isSsh(url) && git.getAuth() == null) {
      violations.add(new Violation(at + ".auth", "is required for an SSH URL: type key and a Secret with the key"));
    }
    if (git.getBaseDir() == null || git.getBaseDir().isBlank()) {
      violations.add(new Violation(at + ".baseDir", "is required and cannot be empty (use / for the root)"));
    }
    if (git.getReference() == null || git.getReference().isBlank()) {
      violations.add(new Violation(at + ".reference", "is required and cannot be empty: a branch, tag or commit"));
    }
    RepositoryAuth auth = git.getAuth();
    if (auth != null) {
      if (auth.getType() == null) {
        violations.add(new Violation(at + ".auth.type", "is required: basic or key"));
      }
      if (auth.getSecretName() == null || auth.getSecretName().isBlank()) {
        violations.add(new Violation(at + ".auth.secretName", "is required and cannot be empty"));
      }
    }
  }

  private static boolean isSsh(String url) {
    return url.startsWith("ssh://") || SCP_FORM.matcher(url).matches();
  }

  private static void checkEnv(List<EnvVar> env, List<Violation> violations) {
    if (env == null) {
      return;
    }
    if (env.size() > MAX_ENV) {
      violations.add(new Violation("spec.env", "has " + env.size() + " entries, more than the " + MAX_ENV
          + " a Function may have"));
      return;
    }
    for (int i = 0; i < env.size(); i++) {
      long valueBytes = bytes(env.get(i).getValue());
      if (valueBytes > MAX_ENV_VALUE_BYTES) {
        violations.add(new Violation("spec.env[" + i + "].value", "is " + valueBytes + " bytes, more than the "
            + MAX_ENV_VALUE_BYTES + " an env value may have; mount larger data from a ConfigMap or Secret"));
      }
      String at = "spec.env[" + i + "].name";
      String name = env.get(i).getName();
      if (name == null || name.isEmpty()) {
        violations.add(new Violation(at, "is required"));
      } else if (RESERVED_ENV.contains(name)) {
        violations.add(new Violation(at, "`" + name + "` is reserved for the runtime; the reserved names are "
            + String.join(", ", RESERVED_ENV)));
      } else if (!KubernetesNames.isCIdentifier(name)) {
        violations.add(new Violation(at, "`" + name + "` is not a C identifier (letters, digits and _, not"
            + " starting with a digit)"));
      }
    }
  }

  private static void checkResources(ResourceConfiguration config, List<Violation> violations) {
    if (config == null) {
      return;
    }
    ResourceRules.FUNCTION.check(config.getFunction(), "spec.resourceConfiguration.function", violations);
    ResourceRules.BUILD.check(config.getBuild(), "spec.resourceConfiguration.build", violations);
  }

  private static void checkScaling(FunctionSpec spec, List<Violation> violations) {
    if (spec.getReplicas() != null && spec.getReplicas() < 0) {
      violations.add(new Violation("spec.replicas", "is " + spec.getReplicas() + "; it must be 0 or more"));
    }
    ScaleConfig scale = spec.getScaleConfig();
    if (scale == null) {
      return;
    }
    Integer min = scale.getMinReplicas();
    Integer max = scale.getMaxReplicas();
    if (min == null) {
      violations.add(new Violation("spec.scaleConfig.minReplicas", "is required in scaleConfig"));
    } else if (min < 1) {
      violations.add(new Violation("spec.scaleConfig.minReplicas", "is " + min + "; it must be 1 or more"));
    }
    if (max == null) {
      violations.add(new Violation("spec.scaleConfig.maxReplicas", "is required in scaleConfig"));
    } else if (max < 1) {
      violations.add(new Violation("spec.scaleConfig.maxReplicas", "is " + max + "; it must be 1 or more"));
    }
    if (min != null && max != null && min > max) {
      violations.add(new Violation("spec.scaleConfig",
          "minReplicas " + min + " is more than maxReplicas " + max));
    }
  }

  private static void checkTemplate(Template template, List<Violation> violations) {
    if (template != null && (template.getLabels() != null || template.getAnnotations() != null)) {
      violations.add(new Violation("spec.template",
          "is not supported; move its labels and annotations to spec.labels and spec.annotations"));
    }
  }

  private static void checkSecretMounts(List<SecretMount> mounts, List<Violation> violations) {
    if (mounts == null) {
      return;
    }
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < mounts.size(); i++) {
      String at = "spec.secretMounts[" + i + "]";
      SecretMount mount = mounts.get(i);
      String name = mount.getSecretName();
      if (name == null || name.isEmpty()) {
        violations.add(new Violation(at + ".secretName", "is required"));
      } else if (!KubernetesNames.isDns1123Subdomain(name)) {
        violations.add(new Violation(at + ".secretName", "`" + name + "` is not a Secret name (a DNS-1123"
            + " subdomain: lower-case letters, digits, '-' and '.', at most 253 characters)"));
      } else if (!seen.add(name)) {
        violations.add(new Violation(at + ".secretName", "Secret `" + name + "` is mounted twice; mount it once"));
      }
      if (mount.getMountPath() == null || mount.getMountPath().isEmpty()) {
        violations.add(new Violation(at + ".mountPath", "is required"));
      }
    }
  }

  static void checkLabels(
      Map<String, String> labels, String field, boolean reservedPrefix, List<Violation> violations) {
    if (labels == null) {
      return;
    }
    for (Map.Entry<String, String> label : labels.entrySet()) {
      String at = field + "[" + label.getKey() + "]";
      checkKey(label.getKey(), at, reservedPrefix, violations);
      KubernetesNames.labelValue(label.getValue() == null ? "" : label.getValue())
          .ifPresent(m -> violations.add(new Violation(at, m)));
    }
  }

  static void checkAnnotations(
      Map<String, String> annotations, String field, boolean reservedPrefix, List<Violation> violations) {
    if (annotations == null) {
      return;
    }
    long total = 0;
    for (Map.Entry<String, String> annotation : annotations.entrySet()) {
      String at = field + "[" + annotation.getKey() + "]";
      checkKey(annotation.getKey(), at, reservedPrefix, violations);
      if (reservedPrefix && annotation.getKey().equals(ISTIO_PROXY_CONFIG)) {
        violations.add(new Violation(at, "is not allowed on a Function's Pods, as in Kyma: the sidecar's proxy"
            + " configuration is the mesh's to set"));
      }
      total += bytes(annotation.getKey()) + bytes(annotation.getValue());
    }
    if (total > MAX_ANNOTATION_BYTES) {
      violations.add(new Violation(field, "are " + total + " bytes together, more than the " + MAX_ANNOTATION_BYTES
          + " Kubernetes allows"));
    }
  }

  private static void checkBuildMode(Map<String, String> annotations, List<Violation> violations) {
    String mode = annotations == null ? null : annotations.get(Annotations.BUILD_MODE);
    if (mode != null) {
      try {
        BuildMode.parse(mode);
      } catch (IllegalArgumentException e) {
        violations.add(new Violation("metadata.annotations[" + Annotations.BUILD_MODE + "]", e.getMessage()));
      }
    }
  }

  private static void checkKey(String key, String at, boolean reservedPrefix, List<Violation> violations) {
    if (reservedPrefix && key.startsWith(RESERVED_PREFIX)) {
      violations.add(new Violation(at, "keys starting with " + RESERVED_PREFIX + " are reserved for the"
          + " controller; use another prefix"));
      return;
    }
    KubernetesNames.qualifiedKey(key).ifPresent(m -> violations.add(new Violation(at, m)));
  }

  private static long bytes(String text) {
    return text == null ? 0 : text.getBytes(StandardCharsets.UTF_8).length;
  }
}
