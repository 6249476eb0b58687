package io.gitfn.api.repository;

import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * An infra repository: a Git URL, a ref and a path under which gitfn finds Function manifests and function
 * folders. gitfn applies what it finds as Function resources in this namespace, prunes what left Git, and
 * records the revisions it fetched and applied.
 */
@Group(FunctionRepository.GROUP)
@Version(FunctionRepository.VERSION)
@Kind("FunctionRepository")
@Plural("functionrepositories")
@ShortNames("fnrepo")
@AdditionalPrinterColumn(name = "URL", jsonPath = ".spec.url")
@AdditionalPrinterColumn(name = "Revision", jsonPath = ".status.lastAppliedRevision")
@AdditionalPrinterColumn(name = "Ready", jsonPath = ".status.conditions[?(@.type=='Ready')].status")
@AdditionalPrinterColumn(name = "Age", jsonPath = ".metadata.creationTimestamp",
    type = AdditionalPrinterColumn.Type.DATE)
public class FunctionRepository extends CustomResource<FunctionRepositorySpec, FunctionRepositoryStatus>
    implements Namespaced {

  public static final String GROUP = "gitfn.io";
  public static final String VERSION = "v1alpha1";
}
