package io.gitfn.api.function;

import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Categories;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * A serverless Function, as Kyma Serverless defines it: a handler in Node.js or Python, given inline or from a
 * directory of a Git repository, that gitfn builds into an image and runs as a Deployment behind a Service.
 *
 * <p>A Function YAML written for Kyma applies unchanged. The status keeps Kyma's fields and adds what gitfn
 * needs for GitOps: the resolved source revision, the image, and a short history of what was built.
 */
@Group(Function.GROUP)
@Version(Function.VERSION)
@Kind("Function")
@Plural("functions")
@ShortNames("fn")
@Categories("kyma-serverless")
@AdditionalPrinterColumn(name = "Configured",
    jsonPath = ".status.conditions[?(@.type=='ConfigurationReady')].status")
@AdditionalPrinterColumn(name = "Built", jsonPath = ".status.conditions[?(@.type=='BuildReady')].status")
@AdditionalPrinterColumn(name = "Running", jsonPath = ".status.conditions[?(@.type=='Running')].status")
@AdditionalPrinterColumn(name = "Runtime", jsonPath = ".spec.runtime")
@AdditionalPrinterColumn(name = "Commit", jsonPath = ".status.commit")
@AdditionalPrinterColumn(name = "Pinned", jsonPath = ".status.pinnedRevision", priority = 1)
@AdditionalPrinterColumn(name = "Age", jsonPath = ".metadata.creationTimestamp",
    type = AdditionalPrinterColumn.Type.DATE)
public class Function extends CustomResource<FunctionSpec, FunctionStatus> implements Namespaced {

  public static final String GROUP = "serverless.kyma-project.io";
  public static final String VERSION = "v1alpha2";
}
