package io.gitfn.reconcile.repository;

import static io.gitfn.api.repository.RepositoryConditionReason.APPLY_REFUSED;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.gitfn.api.Annotations;
import io.gitfn.api.function.Function;
import io.gitfn.manifest.ObjectType;
import io.gitfn.preview.PreviewRoutes;
import io.gitfn.reconcile.StepFailure;
import io.gitfn.reconcile.sync.Declared;
import io.gitfn.source.Revision;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * A revision as a preview applies it: everything in the preview's namespace, and routes under the preview's host (or
 * none without a host template, so that a preview never answers for production's host). What is refused is refused
 * whole, as for any revision.
 */
final class PreviewRevision {

  /** Moves the Functions of the repository's namespace into the preview's; one of another namespace is refused. */
  static void place(Revision revision, List<Function> functions, String home, String namespace)
      throws StepFailure.Stalled {
    List<String> refused = new ArrayList<>();
    for (Function function : functions) {
      String named = function.getMetadata().getNamespace();
      if (named == null || named.isBlank() || named.equals(home)) {
        function.getMetadata().setNamespace(namespace);
        // Its images are the repository's: an unchanged Function reuses what runs, and a merge finds what it built.
        Map<String, String> annotations = new TreeMap<>(Objects.requireNonNullElse(
            function.getMetadata().getAnnotations(), Map.of()));
        annotations.put(Annotations.IMAGE_NAMESPACE, home);
        function.getMetadata().setAnnotations(annotations);
      } else {
        refused.add("Function " + function.getMetadata().getName() + " names namespace " + named
            + ", and a preview applies into its own namespace " + namespace + " only");
      }
    }
    if (!refused.isEmpty()) {
      throw StepFailure.stalled(APPLY_REFUSED, "revision " + revision + " was not applied: "
          + String.join("; ", refused));
    }
  }

  /**
   * The routes as the preview applies them: under its host, or none at all when its repository has no host template.
   * The names the preview applied before stay, to be pruned.
   */
  static Map<ObjectType, Declared<GenericKubernetesResource>> routes(Revision revision,
      Map<ObjectType, Declared<GenericKubernetesResource>> objects, PreviewTarget target) throws StepFailure.Stalled {
    Map<ObjectType, Declared<GenericKubernetesResource>> rewritten = new LinkedHashMap<>();
    List<String> refused = new ArrayList<>();
    objects.forEach((type, declared) -> {
      List<GenericKubernetesResource> routes = new ArrayList<>();
      if (target.host().isPresent()) {
        for (GenericKubernetesResource route : declared.desired()) {
          try {
            routes.add(PreviewRoutes.rewrite(route, target.host().get(), target.context()));
          } catch (IllegalArgumentException e) {
            refused.add(declared.shown(route.getMetadata().getName()) + e.getMessage());
          }
        }
      }
      rewritten.put(type, new Declared<>(routes, declared.owned(), declared.places()));
    });
    if (!refused.isEmpty()) {
      throw StepFailure.stalled(APPLY_REFUSED, "revision " + revision + " was not applied as a preview: "
          + String.join("; ", refused));
    }
    return rewritten;
  }

  /** Where the preview answers: its first route's host, else its first Function's Service. */
  static Optional<String> url(Map<ObjectType, Declared<GenericKubernetesResource>> objects, List<Function> functions,
      String namespace) {
    List<GenericKubernetesResource> routes = objects.values().stream().flatMap(d -> d.desired().stream()).toList();
    return PreviewRoutes.url(routes, functions.stream().map(f -> f.getMetadata().getName()).toList(), namespace);
  }

  private PreviewRevision() {}
}
