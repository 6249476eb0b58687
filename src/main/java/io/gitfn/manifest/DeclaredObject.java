package io.gitfn.manifest;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.util.Objects;
import java.util.Optional;

/**
 * An object of a kind the controller allows beside Functions ({@link AllowedKinds}), other than a ConfigMap or a
 * Secret: a route, as the file has it, its metadata checked ({@link ObjectReader}) and its status left out. Its
 * content is the API server's to check, by the dry run that comes before any write.
 *
 * @param line the 1-based line its document starts on, for messages
 * @param object copied in and out, so that no caller changes what another reads
 */
public record DeclaredObject(String file, int line, GenericKubernetesResource object) {

  private static final ObjectMapper COPIES = new ObjectMapper();

  public DeclaredObject {
    Objects.requireNonNull(file, "file");
    if (line < 0) {
      throw new IllegalArgumentException("line must be 0 (none) or more, not " + line);
    }
    Objects.requireNonNull(object.getMetadata().getName(), "object's name");
    object = copy(object);
  }

  @Override
  public GenericKubernetesResource object() {
    return copy(object);
  }

  public ObjectType type() {
    return new ObjectType(object.getApiVersion(), object.getKind());
  }

  public String name() {
    return object.getMetadata().getName();
  }

  /** Where it is declared, as messages show it: {@code file:line}. */
  public String place() {
    return file + (line > 0 ? ":" + line : "");
  }

  /**
   * Why a FunctionRepository in {@code namespace} does not apply it, or empty: a repository's objects go to its own
   * namespace, which one may name but not change.
   */
  public Optional<ManifestError> refusedIn(String namespace) {
    return refusal(file, line, object.getKind(), object.getMetadata().getNamespace(), namespace);
  }

  /** The object as a FunctionRepository in {@code namespace} applies it: in that namespace. */
  public GenericKubernetesResource in(String namespace) {
    refusedIn(namespace).ifPresent(refused -> {
      throw new IllegalArgumentException(refused.toString());
    });
    GenericKubernetesResource placed = object();
    placed.getMetadata().setNamespace(namespace);
    return placed;
  }

  /** Why an object of {@code kind} naming {@code named} is not applied by a repository in {@code namespace}. */
  static Optional<ManifestError> refusal(String file, int line, String kind, String named, String namespace) {
    if (named == null || named.equals(namespace)) {
      return Optional.empty();
    }
    return Optional.of(new ManifestError(file, line, "metadata.namespace", "is `" + named + "`, not `" + namespace
        + "`, the namespace of the FunctionRepository; a repository's " + kind + "s go to its own namespace: remove"
        + " metadata.namespace or set it to " + namespace));
  }

  private static GenericKubernetesResource copy(GenericKubernetesResource object) {
    return COPIES.convertValue(object, GenericKubernetesResource.class);
  }

  /** Its place, kind and name, not its content. */
  @Override
  public String toString() {
    return "DeclaredObject[" + place() + ", " + object.getKind() + " " + name() + "]";
  }
}
