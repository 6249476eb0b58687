package io.gitfn.reconcile.sync;

import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.gitfn.api.function.Function;
import io.gitfn.api.function.FunctionRuntime;
import io.gitfn.api.function.FunctionSpec;
import io.gitfn.api.function.GitRepositorySource;
import io.gitfn.api.function.InlineSource;
import io.gitfn.api.function.ScaleConfig;
import io.gitfn.api.function.Source;
import io.gitfn.source.Revision;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Builds the desired Functions a revision of an infra repository would declare. */
public final class FunctionFixture {

  private final String name;
  private String namespace;
  private String code;
  private boolean alsoGit;
  private final List<EnvVar> env = new ArrayList<>();
  private final Map<String, String> labels = new LinkedHashMap<>();
  private Integer replicas;
  private ScaleConfig scale;

  private FunctionFixture(String name) {
    this.name = name;
    this.code = "module.exports = { main: () => '" + name + "' };";
  }

  /** A Node.js 22 inline Function. */
  public static FunctionFixture inline(String name) {
    return new FunctionFixture(name);
  }

  public static Revision revision(int commit) {
    return new Revision("main", String.format("%040x", commit));
  }

  public FunctionFixture inNamespace(String namespace) {
    this.namespace = namespace;
    return this;
  }

  public FunctionFixture code(String code) {
    this.code = code;
    return this;
  }

  public FunctionFixture env(String name, String value) {
    env.add(new EnvVar(name, value, null));
    return this;
  }

  public FunctionFixture label(String key, String value) {
    labels.put(key, value);
    return this;
  }

  public FunctionFixture replicas(int replicas) {
    this.replicas = replicas;
    return this;
  }

  public FunctionFixture scale(int min, int max) {
    scale = new ScaleConfig();
    scale.setMinReplicas(min);
    scale.setMaxReplicas(max);
    return this;
  }

  /** Both an inline and a git source: the CRD's CEL rule rejects it. */
  public FunctionFixture withBothSources() {
    alsoGit = true;
    return this;
  }

  public Function build() {
    Function function = new Function();
    ObjectMeta metadata = new ObjectMeta();
    metadata.setName(name);
    metadata.setNamespace(namespace);
    if (!labels.isEmpty()) {
      metadata.setLabels(new LinkedHashMap<>(labels));
    }
    function.setMetadata(metadata);
    FunctionSpec spec = new FunctionSpec();
    spec.setRuntime(FunctionRuntime.NODEJS22);
    Source source = new Source();
    InlineSource inline = new InlineSource();
    inline.setSource(code);
    source.setInline(inline);
    if (alsoGit) {
      GitRepositorySource git = new GitRepositorySource();
      git.setUrl("https://example.com/functions.git");
      git.setBaseDir("/" + name);
      git.setReference("main");
      source.setGitRepository(git);
    }
    spec.setSource(source);
    if (!env.isEmpty()) {
      spec.setEnv(new ArrayList<>(env));
    }
    spec.setReplicas(replicas);
    spec.setScaleConfig(scale);
    function.setSpec(spec);
    return function;
  }
}
