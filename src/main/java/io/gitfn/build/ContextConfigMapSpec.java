package io.gitfn.build;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.gitfn.api.Labels;
import io.gitfn.api.function.Function;
import io.gitfn.workload.ChildLabels;
import io.gitfn.workload.Owner;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/** The ConfigMap that carries a build context to its build Job. */
public final class ContextConfigMapSpec {

  private ContextConfigMapSpec() {
  }

  /**
   * Named like the build Job, so one content key has one context. Immutable, because its name already says what
   * it holds: a changed source is a new key and a new ConfigMap.
   */
  public static ConfigMap forFunction(Function fn, ContentKey key, BuildContext context) {
    Map<String, String> labels = new LinkedHashMap<>(ChildLabels.ofFunction(fn));
    labels.put(Labels.CONTENT_KEY, key.tag());
    return new ConfigMapBuilder()
        .withNewMetadata()
        .withName(BuildJobSpec.name(fn, key))
        .withNamespace(fn.getMetadata().getNamespace())
        .withLabels(labels)
        .withOwnerReferences(Owner.of(fn))
        .endMetadata()
        .withImmutable(true)
        .withData(new TreeMap<>(context.data()))
        .build();
  }
}
