package io.gitfn.crdgen;

import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.crdv2.generator.CRDGenerator;
import io.fabric8.crdv2.generator.CRDPostProcessor;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceColumnDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionVersion;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaProps;
import io.gitfn.api.function.Function;
import io.gitfn.api.repository.FunctionRepository;
import java.io.File;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * Build tooling, run by Maven at {@code process-classes} and left out of {@code gitfn.jar}: writes the CRDs
 * of gitfn's custom resources from their Java types.
 *
 * <p>It is fabric8's CRD generator with two changes its annotations cannot express:
 *
 * <ul>
 *   <li>fabric8 sorts printer columns by JSON path, which would make {@code kubectl get fn} print AGE first;
 *       here they keep the order the class declares them in;
 *   <li>{@code status.conditions} becomes a list map keyed by {@code type}, as {@code metav1.Condition} lists
 *       are in Kubernetes' own types, so that server-side apply merges conditions instead of replacing the
 *       whole list.
 * </ul>
 */
public final class GenerateCrds {

  static final List<Class<? extends HasMetadata>> RESOURCES = List.of(Function.class, FunctionRepository.class);

  public static void main(String[] args) {
    if (args.length != 1) {
      throw new IllegalArgumentException("usage: GenerateCrds <output directory>");
    }
    File out = new File(args[0]);
    if (!out.isDirectory() && !out.mkdirs()) {
      throw new IllegalStateException("cannot create " + out);
    }
    int written =
        new CRDGenerator()
            .customResourceClasses(RESOURCES)
            .forCRDVersions("v1")
            .withPostProcessor(new Polish())
            .inOutputDir(out)
            .generate();
    if (written != RESOURCES.size()) {
      throw new IllegalStateException("expected " + RESOURCES.size() + " CRDs, generated " + written);
    }
  }

  /** The changes above, applied to each generated CRD before it is written. */
  static final class Polish implements CRDPostProcessor {
    @Override
    public HasMetadata process(HasMetadata crd, String crdSpecVersion) {
      CustomResourceDefinition definition = (CustomResourceDefinition) crd;
      DeclaredColumnOrder.apply(definition);
      ConditionsListMap.apply(definition);
      return definition;
    }
  }

  /** Puts printer columns back in the order of the class's {@link AdditionalPrinterColumn} annotations. */
  static final class DeclaredColumnOrder {
    static void apply(CustomResourceDefinition definition) {
      List<String> declared =
          RESOURCES.stream()
              .filter(type -> HasMetadata.getFullResourceName(type).equals(definition.getMetadata().getName()))
              .flatMap(type -> Arrays.stream(type.getAnnotationsByType(AdditionalPrinterColumn.class)))
              .map(AdditionalPrinterColumn::name)
              .toList();
      for (CustomResourceDefinitionVersion version : definition.getSpec().getVersions()) {
        if (version.getAdditionalPrinterColumns() != null) {
          version.getAdditionalPrinterColumns().sort(Comparator.comparingInt(
              (CustomResourceColumnDefinition column) -> rank(declared, column.getName())));
        }
      }
    }

    private static int rank(List<String> declared, String name) {
      int index = declared.indexOf(name);
      return index < 0 ? declared.size() : index;
    }
  }

  /** Makes {@code status.conditions} a list map keyed by {@code type}, with type and status required. */
  static final class ConditionsListMap {
    static void apply(CustomResourceDefinition definition) {
      for (CustomResourceDefinitionVersion version : definition.getSpec().getVersions()) {
        JSONSchemaProps status = version.getSchema().getOpenAPIV3Schema().getProperties().get("status");
        JSONSchemaProps conditions = status == null ? null : status.getProperties().get("conditions");
        if (conditions == null) {
          continue;
        }
        conditions.setXKubernetesListType("map");
        conditions.setXKubernetesListMapKeys(List.of("type"));
        conditions.getItems().getSchema().setRequired(List.of("status", "type"));
      }
    }
  }

  private GenerateCrds() {}
}
