package io.gitfn.manifest;

import io.gitfn.api.function.Function;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The kinds an infra repository may declare beside its Functions: a controller setting, so that a platform team
 * decides what tenants may put in their folders. Any other kind in a revision is a notice and is not applied.
 *
 * <p>ConfigMaps and Secrets keep readers of their own (a Secret only encrypted with SOPS); any other kind is applied
 * as the file has it, after the checks every object gets ({@link ObjectReader}). Only namespaced kinds can be applied:
 * the controller refuses a cluster-scoped one when it meets it.
 */
public record AllowedKinds(Set<ObjectType> types) {

  /** What a Function app needs: its configuration, its encrypted Secrets and its routes. */
  public static final AllowedKinds DEFAULT = new AllowedKinds(List.of(ObjectType.CONFIG_MAP, ObjectType.SECRET,
      ObjectType.HTTP_ROUTE, ObjectType.INGRESS, ObjectType.API_RULE));

  public AllowedKinds {
    types = Set.copyOf(types);
  }

  public AllowedKinds(Collection<ObjectType> types) {
    this(new LinkedHashSet<>(types));
  }

  /**
   * The kinds {@code entries} name, each as {@code apiVersion/Kind}.
   *
   * @throws IllegalArgumentException naming every entry that is not such a name, or that names a Function (always
   *     read) or a kind gitfn never applies for a repository
   */
  public static AllowedKinds parse(List<String> entries) {
    List<ObjectType> types = new ArrayList<>();
    List<String> wrong = new ArrayList<>();
    for (String entry : entries) {
      if (entry.isBlank()) {
        continue;
      }
      ObjectType.parse(entry).ifPresentOrElse(type -> {
        if (type.group().equals(Function.GROUP) || type.group().equals("gitfn.io")) {
          wrong.add("`" + entry.strip() + "` is gitfn's own kind, which a repository declares as a Function or not"
              + " at all");
        } else {
          types.add(type);
        }
      }, () -> wrong.add("`" + entry.strip() + "` is not apiVersion/Kind, as in v1/ConfigMap or"
          + " gateway.networking.k8s.io/v1/HTTPRoute"));
    }
    if (!wrong.isEmpty()) {
      throw new IllegalArgumentException(String.join("; ", wrong));
    }
    return new AllowedKinds(types);
  }

  public boolean allows(ObjectType type) {
    return types.contains(type);
  }

  /** The kinds, sorted, as a setting lists them. */
  public String shown() {
    return types.stream().map(ObjectType::toString).sorted().collect(Collectors.joining(", "));
  }
}
