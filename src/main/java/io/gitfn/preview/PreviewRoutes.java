package io.gitfn.preview;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.gitfn.manifest.ObjectType;
import java.util.List;
import java.util.Optional;

/**
 * A repository's routes as a preview applies them: in the preview's namespace, each with the one host
 * {@code spec.previews.host} gives it, where {@code {function}} is the Function the route sends its traffic to (the
 * Service a Function's Deployment is reached by has the Function's name). Without the template a preview applies no
 * route at all, so nothing here is asked for.
 *
 * <ul>
 *   <li>an HTTPRoute's {@code spec.hostnames} become the host of its first Service backend; a parent without a
 *       namespace is one in the route's own namespace, and production's Gateway is in the repository's, so the
 *       preview route names that;
 *   <li>each of an Ingress's rules gets the host of its first Service backend, or of the default backend when it has
 *       none; its {@code tls} goes, as its certificates are for production's hosts;
 *   <li>an APIRule's {@code spec.hosts} become the host of its Service.
 * </ul>
 *
 * <p>Errors name the route as {@code Kind name}, for the caller to put its file and line before.
 */
public final class PreviewRoutes {

  /** Not the client's KubernetesSerialization: this package stays free of the client. */
  private static final ObjectMapper JSON = new ObjectMapper();

  private PreviewRoutes() {}

  /**
   * A copy of {@code route} for the preview {@code context} describes; {@code route} itself is not changed.
   *
   * @throws IllegalArgumentException when it is not an HTTPRoute, an Ingress or an APIRule, names no Service to
   *     send its traffic to, or would get a host that is not one
   */
  public static GenericKubernetesResource rewrite(GenericKubernetesResource route, HostTemplate template,
      PreviewContext context) {
    String named = named(route);
    if (!is(route, ObjectType.HTTP_ROUTE) && !is(route, ObjectType.INGRESS) && !is(route, ObjectType.API_RULE)) {
      throw new IllegalArgumentException(named + " (" + route.getApiVersion() + ") is not a route a preview can"
          + " apply: previews rewrite the hosts of HTTPRoutes, Ingresses and APIRules only");
    }
    ObjectNode copy = JSON.valueToTree(route);
    if (!(copy.get("spec") instanceof ObjectNode spec)) {
      throw noFunction(named);
    }
    if (is(route, ObjectType.HTTP_ROUTE)) {
      String host = host(named, template, httpRouteFunction(spec).orElseThrow(() -> noFunction(named)), context);
      spec.putArray("hostnames").add(host);
      for (JsonNode parent : spec.path("parentRefs")) {
        if (parent instanceof ObjectNode gateway && gateway.path("namespace").asText("").isEmpty()
            && isGateway(gateway)) {
          gateway.put("namespace", context.repositoryNamespace());
        }
      }
    } else if (is(route, ObjectType.INGRESS)) {
      ingress(spec, named, template, context);
    } else {
      Optional<String> function = text(spec.path("service").path("name"));
      for (JsonNode rule : spec.path("rules")) {
        function = function.or(() -> text(rule.path("service").path("name")));
      }
      spec.putArray("hosts").add(host(named, template, function.orElseThrow(() -> noFunction(named)), context));
    }
    GenericKubernetesResource rewritten = JSON.convertValue(copy, GenericKubernetesResource.class);
    if (rewritten.getMetadata() == null) {
      rewritten.setMetadata(new ObjectMeta());
    }
    rewritten.getMetadata().setNamespace(context.previewNamespace());
    return rewritten;
  }

  /**
   * Where a preview is reached, for its commit status and its pull-request comment: the first host of the first of
   * {@code rewritten} with its first literal path, else the cluster address of the first of {@code functionNames}
   * (a Function's Service listens on port 80), else nothing.
   *
   * @param rewritten routes as {@link #rewrite} gives them, in the order the repository declares them
   */
  public static Optional<String> url(List<GenericKubernetesResource> rewritten, List<String> functionNames,
      String previewNamespace) {
    for (GenericKubernetesResource route : rewritten) {
      JsonNode spec = JSON.valueToTree(route).path("spec");
      Optional<String> address = Optional.empty();
      if (is(route, ObjectType.HTTP_ROUTE)) {
        JsonNode path = spec.path("rules").path(0).path("matches").path(0).path("path");
        boolean literalType = List.of("PathPrefix", "Exact").contains(path.path("type").asText("PathPrefix"));
        Optional<String> value = literalType ? text(path.path("value")) : Optional.empty();
        address = text(spec.path("hostnames").path(0)).map(host -> host + openable(value));
      } else if (is(route, ObjectType.INGRESS)) {
        JsonNode rule = spec.path("rules").path(0);
        JsonNode path = rule.path("http").path("paths").path(0);
        boolean literalType = List.of("Prefix", "Exact").contains(path.path("pathType").asText(""));
        Optional<String> value = literalType ? text(path.path("path")) : Optional.empty();
        address = text(rule.path("host")).map(host -> host + openable(value));
      } else if (is(route, ObjectType.API_RULE)) {
        Optional<String> value = text(spec.path("rules").path(0).path("path"));
        address = text(spec.path("hosts").path(0)).map(host -> host + openable(value));
      }
      if (address.isPresent()) {
        return address.map(PreviewRoutes::http);
      }
    }
    return functionNames.stream().findFirst()
        .map(function -> http(function + "." + previewNamespace + ".svc.cluster.local/"));
  }

  /**
   * Every rule gets a host: one left without would take any host's traffic. For the same reason an Ingress with a
   * default backend and no rules is refused.
   */
  private static void ingress(ObjectNode spec, String named, HostTemplate template, PreviewContext context) {
    JsonNode rules = spec.path("rules");
    Optional<String> byDefault = text(spec.path("defaultBackend").path("service").path("name"));
    if (rules.isEmpty() && spec.hasNonNull("defaultBackend")) {
      throw new IllegalArgumentException(named + " has a defaultBackend and no rules: in a preview it would take the"
          + " traffic of every host; give it a rule, which the preview gives its own host");
    }
    if (rules.isEmpty()) {
      throw noFunction(named);
    }
    for (int i = 0; i < rules.size(); i++) {
      if (!(rules.get(i) instanceof ObjectNode rule)) {
        throw new IllegalArgumentException(named + ": spec.rules[" + i + "] is not a mapping");
      }
      Optional<String> function = Optional.empty();
      for (JsonNode path : rule.path("http").path("paths")) {
        function = function.or(() -> text(path.path("backend").path("service").path("name")));
      }
      String ruleAt = "spec.rules[" + i + "]";
      String host = host(named, template, function.or(() -> byDefault).orElseThrow(() -> new IllegalArgumentException(
          named + " names no Service in " + ruleAt + ".http.paths nor in spec.defaultBackend, so no Function for the"
              + " {function} of spec.previews.host")), context);
      rule.put("host", host);
    }
    spec.remove("tls");
  }

  /** The first backend that is a Service: one of another kind, such as a Gateway's extension, is no Function. */
  private static Optional<String> httpRouteFunction(JsonNode spec) {
    for (JsonNode rule : spec.path("rules")) {
      for (JsonNode backend : rule.path("backendRefs")) {
        if (backend.path("kind").asText("Service").equals("Service") && backend.path("group").asText("").isEmpty()
            && text(backend.path("name")).isPresent()) {
          return text(backend.path("name"));
        }
      }
    }
    return Optional.empty();
  }

  /**
   * A parent of Gateway API's own kinds (Gateway is the default). A Service parent (a mesh route) stays: without a
   * namespace it is the preview's own Service, which is right for a preview.
   */
  private static boolean isGateway(JsonNode parent) {
    String group = parent.path("group").asText(ObjectType.HTTP_ROUTE.group());
    return group.equals(ObjectType.HTTP_ROUTE.group()) && parent.path("kind").asText("Gateway").equals("Gateway");
  }

  private static String host(String named, HostTemplate template, String function, PreviewContext context) {
    try {
      return template.host(function, context.number(), context.repository(), context.repositoryNamespace());
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(named + ": " + e.getMessage(), e);
    }
  }

  private static boolean is(GenericKubernetesResource route, ObjectType type) {
    String apiVersion = route.getApiVersion() == null ? "" : route.getApiVersion();
    int slash = apiVersion.indexOf('/');
    return type.kind().equals(route.getKind()) && slash > 0 && apiVersion.substring(0, slash).equals(type.group());
  }

  /** A path a browser can open as it is: not a pattern, and starting at the root. */
  private static String openable(Optional<String> path) {
    return path.filter(value -> value.startsWith("/") && !value.contains("*") && !value.contains("{")).orElse("/");
  }

  private static Optional<String> text(JsonNode value) {
    return value.isTextual() && !value.asText().isEmpty() ? Optional.of(value.asText()) : Optional.empty();
  }

  private static String http(String hostAndPath) {
    return "http://" + hostAndPath;
  }

  private static String named(GenericKubernetesResource route) {
    String name = route.getMetadata() == null ? null : route.getMetadata().getName();
    return route.getKind() + " " + (name == null ? "(without a name)" : name);
  }

  private static IllegalArgumentException noFunction(String named) {
    return new IllegalArgumentException(named + " names no Service to send its traffic to, so no Function for the"
        + " {function} of spec.previews.host");
  }
}
