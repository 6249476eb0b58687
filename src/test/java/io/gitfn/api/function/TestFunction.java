package io.gitfn.api.function;

import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Builds Functions for tests: a Node.js 22 inline Function unless told otherwise. */
public final class TestFunction {

  private String name = "orders";
  private String namespace = "shop";
  private String uid = "0b6f4d3e-1111-2222-3333-444455556666";
  private FunctionRuntime runtime = FunctionRuntime.NODEJS22;
  private String override;
  private String code = "module.exports = { main: () => 'ok' };";
  private String dependencies;
  private GitRepositorySource git;
  private final List<EnvVar> env = new ArrayList<>();
  private final Map<String, String> metadataLabels = new LinkedHashMap<>();
  private final Map<String, String> labels = new LinkedHashMap<>();
  private final Map<String, String> annotations = new LinkedHashMap<>();
  private final List<SecretMount> secretMounts = new ArrayList<>();
  private Integer replicas;
  private ScaleConfig scale;
  private ProfileOrResources functionResources;
  private ProfileOrResources buildResources;

  private TestFunction() {
  }

  public static TestFunction inline() {
    return new TestFunction();
  }

  public static TestFunction fromGit(String baseDir) {
    TestFunction fn = new TestFunction();
    fn.git = new GitRepositorySource();
    fn.git.setUrl("https://git.example.com/shop/functions.git");
    fn.git.setBaseDir(baseDir);
    fn.git.setReference("main");
    return fn;
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

  public TestFunction env(String name, String value) {
    env.add(new EnvVar(name, value, null));
    return this;
  }

  public TestFunction metadataLabel(String key, String value) {
    metadataLabels.put(key, value);
    return this;
  }

  public TestFunction label(String key, String value) {
    labels.put(key, value);
    return this;
  }

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

  public Function build() {
    Function fn = new Function();
    fn.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(namespace).withUid(uid)
        .withLabels(metadataLabels.isEmpty() ? null : new LinkedHashMap<>(metadataLabels)).build());
    FunctionSpec spec = new FunctionSpec();
    spec.setRuntime(runtime);
    spec.setRuntimeImageOverride(override);
    Source source = new Source();
    if (git != null) {
      source.setGitRepository(git);
    } else {
      InlineSource inline = new InlineSource();
      inline.setSource(code);
      inline.setDependencies(dependencies);
      source.setInline(inline);
    }
    spec.setSource(source);
    spec.setEnv(env.isEmpty() ? null : new ArrayList<>(env));
    spec.setLabels(labels.isEmpty() ? null : new LinkedHashMap<>(labels));
    spec.setAnnotations(annotations.isEmpty() ? null : new LinkedHashMap<>(annotations));
    spec.setSecretMounts(secretMounts.isEmpty() ? null : new ArrayList<>(secretMounts));
    spec.setReplicas(replicas);
    spec.setScaleConfig(scale);
    if (functionResources != null || buildResources != null) {
      ResourceConfiguration config = new ResourceConfiguration();
      config.setFunction(functionResources);
      config.setBuild(buildResources);
      spec.setResourceConfiguration(config);
    }
    fn.setSpec(spec);
    return fn;
  }
}
