package io.gitfn.manifest;

import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * A kind of Kubernetes object as a manifest names it: its {@code apiVersion} ({@code v1} for the core group,
 * {@code group/version} otherwise) and its {@code kind}. Written {@code apiVersion/Kind}, as in
 * {@code gateway.networking.k8s.io/v1/HTTPRoute} or {@code v1/ConfigMap}.
 */
public record ObjectType(String apiVersion, String kind) {

  public static final ObjectType CONFIG_MAP = new ObjectType("v1", "ConfigMap");
  public static final ObjectType SECRET = new ObjectType("v1", "Secret");
  public static final ObjectType HTTP_ROUTE = new ObjectType("gateway.networking.k8s.io/v1", "HTTPRoute");
  public static final ObjectType INGRESS = new ObjectType("networking.k8s.io/v1", "Ingress");
  public static final ObjectType API_RULE = new ObjectType("gateway.kyma-project.io/v2", "APIRule");

  private static final Pattern GROUP = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");
  private static final Pattern VERSION = Pattern.compile("v[0-9]+((alpha|beta)[0-9]+)?");
  private static final Pattern KIND = Pattern.compile("[A-Z][A-Za-z0-9]{0,62}");

  public ObjectType {
    Objects.requireNonNull(apiVersion, "apiVersion");
    Objects.requireNonNull(kind, "kind");
  }

  /**
   * The type {@code text} names ({@code apiVersion/Kind}), or empty when it is not one: a Kubernetes group (or
   * none), a version such as {@code v1} or {@code v2beta1}, and a kind starting with a capital letter.
   */
  public static Optional<ObjectType> parse(String text) {
    String[] parts = text.strip().split("/", -1);
    if (parts.length < 2 || parts.length > 3) {
      return Optional.empty();
    }
    String kind = parts[parts.length - 1];
    String version = parts[parts.length - 2];
    boolean grouped = parts.length == 3;
    if (!KIND.matcher(kind).matches() || !VERSION.matcher(version).matches()
        || (grouped && (parts[0].length() > 253 || !GROUP.matcher(parts[0]).matches()))) {
      return Optional.empty();
    }
    return Optional.of(new ObjectType(grouped ? parts[0] + "/" + version : version, kind));
  }

  /** The API group, empty for the core group. */
  public String group() {
    int slash = apiVersion.indexOf('/');
    return slash < 0 ? "" : apiVersion.substring(0, slash);
  }

  @Override
  public String toString() {
    return apiVersion + "/" + kind;
  }
}
