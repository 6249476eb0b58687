package io.gitfn.reconcile.repository;

import static io.gitfn.api.repository.RepositoryConditionReason.PREVIEW_NAMESPACE;

import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.gitfn.api.Labels;
import io.gitfn.api.repository.FunctionRepository;
import io.gitfn.api.repository.PreviewOf;
import io.gitfn.preview.HostTemplate;
import io.gitfn.preview.PreviewContext;
import io.gitfn.reconcile.StepFailure;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Where a preview's repository ({@code spec.previewOf}) applies its revision: the namespace gitfn made for the pull
 * request, which must carry the {@link Labels#PREVIEW_OF} label naming the previewed repository of this repository's
 * own namespace. Only gitfn and cluster administrators label namespaces, so a tenant who sets {@code spec.previewOf} by
 * hand can aim only at the previews of its own namespace.
 *
 * @param context the pull request and the namespaces, for the routes' hosts
 * @param host the previewed repository's host template; empty: the preview applies no routes
 */
record PreviewTarget(PreviewContext context, Optional<HostTemplate> host) {

  /** The namespace the preview applies into. */
  String namespace() {
    return context.previewNamespace();
  }

  /**
   * The target of {@code repository}, empty when it is no preview's.
   *
   * @throws StepFailure stalled when the namespace is not this preview's, waiting while it is missing or on its way
   *     out (the previewed repository makes it before it makes this one, and deletes this one before it)
   */
  static Optional<PreviewTarget> of(FunctionRepository repository, KubernetesClient client) throws StepFailure {
    PreviewOf of = repository.getSpec().getPreviewOf();
    if (of == null) {
      return Optional.empty();
    }
    String home = repository.getMetadata().getNamespace();
    String expected = Labels.repository(home, of.getRepository());
    Namespace namespace;
    try {
      namespace = client.namespaces().withName(of.getNamespace()).get();
    } catch (KubernetesClientException e) {
      throw StepFailure.retry(PREVIEW_NAMESPACE, "cannot read the preview's namespace " + of.getNamespace() + ": "
          + e.getMessage(), e);
    }
    if (namespace == null || namespace.getMetadata().getDeletionTimestamp() != null) {
      throw StepFailure.waiting(PREVIEW_NAMESPACE, "the preview's namespace " + of.getNamespace()
          + (namespace == null ? " does not exist yet" : " is being deleted") + "; nothing was applied",
          Duration.ofSeconds(5));
    }
    Map<String, String> labels = Objects.requireNonNullElse(namespace.getMetadata().getLabels(), Map.of());
    if (!expected.equals(labels.get(Labels.PREVIEW_OF))) {
      throw StepFailure.stalled(PREVIEW_NAMESPACE, "spec.previewOf.namespace " + of.getNamespace() + " is not a"
          + " preview namespace of " + home + "/" + of.getRepository() + " (its label " + Labels.PREVIEW_OF + " is "
          + Optional.ofNullable(labels.get(Labels.PREVIEW_OF)).map(v -> "'" + v + "'").orElse("missing")
          + "); nothing was applied");
    }
    Optional<HostTemplate> host;
    try {
      host = Optional.ofNullable(of.getHost()).map(HostTemplate::parse);
    } catch (IllegalArgumentException e) {
      throw StepFailure.stalled(PREVIEW_NAMESPACE, e.getMessage());
    }
    return Optional.of(new PreviewTarget(new PreviewContext(of.getPullRequest(), of.getRepository(), home,
        of.getNamespace()), host));
  }
}
