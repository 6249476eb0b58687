package io.gitfn.api.function;

import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.EnvVarBuilder;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.PodSecurityContext;
import io.fabric8.kubernetes.api.model.SecurityContext;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Builds Functions for tests: a Node.js 22 inline Function unless told otherwise.
 *
 * <p>{@link #inline()} and {@link #fromGit(String)} start from a Function as the API server holds it: orders in
 * namespace shop, with a uid. {@link #declared(String)} starts from one as a file of an infra repository declares
 * it: no namespace and no uid, which the sync and the API server fill in. {@link #toYaml()} writes that file.
 */
public final class TestFunction {

  private static final KubernetesSerialization YAML = new KubernetesSerialization();

  private String name = "orders";
  private String namespace = "shop";
  private String uid = "0b6f4d3e-1111-2222-3333-444455556666";
  private FunctionRuntime runtime = FunctionRuntime.NODEJS22;
  private String override;
  private boolean inlineSource = true;
  private String code = "module.exports = { main: () => 'ok' };";
  private String dependencies;
  private GitRepositorySource git;
  private final List<EnvVar> env = new ArrayList<>();
  private final Map<String, String> metadataLabels = new LinkedHashMap<>();
  private final Map<String, String> metadataAnnotations = new LinkedHashMap<>();
  private final Map<String, String> labels = new LinkedHashMap<>();
  private final Map<String, String> annotations = new LinkedHashMap<>();
  private final List<SecretMount> secretMounts = new ArrayList<>();
  private Integer replicas;
  private ScaleConfig scale;
  private ProfileOrResources functionResources;
  private ProfileOrResources buildResources;
  private PodSecurityContext podSecurityContext;
  private SecurityContext containerSecurityContext;

  private TestFunction() {
  }

  public static TestFunction inline() {
    return new TestFunction();
  }

  public static TestFunction fromGit(String baseDir) {
    return fromGit("https://git.example.com/shop/functions.git", "main", baseDir);
  }

  public static TestFunction fromGit(String url, String reference, String baseDir) {
    return new TestFunction().gitRepository(url, reference, baseDir);
  }

  /** An inline Function as an infra repository declares it: no namespace, no uid, code that returns its name. */
  public static TestFunction declared(String name) {
    return new TestFunction().named(name).inNamespace(null).uid(null)
        .code("module.exports = { main: () => '" + name + "' };");
  }

  public TestFunction named(String name) {
    this.name = name;
    return this;
  }

  public TestFunction inNamespace(String namespace) {
    this.namespace = namespace;
    return this;
  }

  public TestFunction uid(String uid) {
    this.uid = uid;
    return this;
  }

  public TestFunction runtime(FunctionRuntime runtime) {
    this.runtime = runtime;
    return this;
  }

  public TestFunction runtimeImageOverride(String image) {
    this.override = image;
    return this;
  }

  public TestFunction code(String code) {
    this.code = code;
    return this;
  }

  public TestFunction dependencies(String dependencies) {
    this.dependencies = dependencies;
    return this;
  }

  /** The source becomes this directory of a Git repository instead of the inline code. */
  public TestFunction gitRepository(String url, String reference, String baseDir) {
    inlineSource = false;
    git = git(url, reference, baseDir);
    return this;
  }

  public TestFunction gitAuth(AuthType type, String secretName) {
    RepositoryAuth auth = new RepositoryAuth();
    auth.setType(type);
    auth.setSecretName(secretName);
    git.setAuth(auth);
    return this;
  }

  /** Both the inline source and a Git directory: the CRD's CEL rule rejects it. */
  public TestFunction withBothSources() {
    inlineSource = true;
    git = git("https://example.com/functions.git", "main", "/" + name);
    return this;
  }

  public TestFunction env(String name, String value) {
    env.add(new EnvVar(name, value, null));
    return this;
  }

  /** An env var read from key {@code key} of ConfigMap {@code configMap}. */
  public TestFunction envFromConfigMap(String name, String configMap, String key) {
    env.add(new EnvVarBuilder().withName(name).withNewValueFrom().withNewConfigMapKeyRef(key, configMap, false)
        .endValueFrom().build());
    return this;
  }

  public TestFunction metadataLabel(String key, String value) {
    metadataLabels.put(key, value);
    return this;
  }

  public TestFunction metadataAnnotation(String key, String value) {
    metadataAnnotations.put(key, value);
    return this;
  }

  /** A label of the Function's Pods (spec.labels); {@link #metadataLabel} labels the Function itself. */
  public TestFunction label(String key, String value) {
    labels.put(key, value);
    return this;
  }

  /** An annotation of the Function's Pods (spec.annotations). */
  public TestFunction annotation(String key, String value) {
    annotations.put(key, value);
    return this;
  }

  public TestFunction secretMount(String secret, String path) {
    SecretMount mount = new SecretMount();
    mount.setSecretName(secret);
    mount.setMountPath(path);
    secretMounts.add(mount);
    return this;
  }

  public TestFunction replicas(Integer replicas) {
    this.replicas = replicas;
    return this;
  }

  public TestFunction scale(int min, int max) {
    scale = new ScaleConfig();
    scale.setMinReplicas(min);
    scale.setMaxReplicas(max);
    return this;
  }

  public TestFunction profile(String profile) {
    functionResources = new ProfileOrResources();
    functionResources.setProfile(profile);
    return this;
  }

  public TestFunction resources(ResourceRequirements resources) {
    functionResources = new ProfileOrResources();
    functionResources.setResources(resources);
    return this;
  }

  public TestFunction buildProfile(String profile) {
    buildResources = new ProfileOrResources();
    buildResources.setProfile(profile);
    return this;
  }

  public TestFunction podSecurityContext(PodSecurityContext context) {
    podSecurityContext = context;
    return this;
  }

  public TestFunction containerSecurityContext(SecurityContext context) {
    containerSecurityContext = context;
    return this;
  }

  public Function build() {
    Function fn = new Function();
    ObjectMeta metadata = new ObjectMeta();
    metadata.setName(name);
    metadata.setNamespace(namespace);
    metadata.setUid(uid);
    if (!metadataLabels.isEmpty()) {
      metadata.setLabels(new LinkedHashMap<>(metadataLabels));
    }
    if (!metadataAnnotations.isEmpty()) {
      metadata.setAnnotations(new LinkedHashMap<>(metadataAnnotations));
    }
    fn.setMetadata(metadata);
    FunctionSpec spec = new FunctionSpec();
    spec.setRuntime(runtime);
    spec.setRuntimeImageOverride(override);
    Source source = new Source();
    if (inlineSource) {
      InlineSource inline = new InlineSource();
      inline.setSource(code);
      inline.setDependencies(dependencies);
      source.setInline(inline);
    }
    source.setGitRepository(git);
    spec.setSource(source);
    spec.setEnv(env.isEmpty() ? null : new ArrayList<>(env));
    spec.setLabels(labels.isEmpty() ? null : new LinkedHashMap<>(labels));
    spec.setAnnotations(annotations.isEmpty() ? null : new LinkedHashMap<>(annotations));
    spec.setSecretMounts(secretMounts.isEmpty() ? null : new ArrayList<>(secretMounts));
    spec.setReplicas(replicas);
    spec.setScaleConfig(scale);
    spec.setPodSecurityContext(podSecurityContext);
    spec.setContainerSecurityContext(containerSecurityContext);
    if (functionResources != null || buildResources != null) {
      ResourceConfiguration config = new ResourceConfiguration();
      config.setFunction(functionResources);
      config.setBuild(buildResources);
      spec.setResourceConfiguration(config);
    }
    fn.setSpec(spec);
    return fn;
  }

  /** The Function as one YAML document, to commit to a test Git repository or write to a folder. */
  public String toYaml() {
    return YAML.asYaml(build());
  }

  private static GitRepositorySource git(String url, String reference, String baseDir) {
    GitRepositorySource git = new GitRepositorySource();
    git.setUrl(url);
    git.setBaseDir(baseDir);
    git.setReference(reference);
    return git;
  }
}
