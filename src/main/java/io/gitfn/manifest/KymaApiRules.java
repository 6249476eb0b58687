package io.gitfn.manifest;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The {@code apiRules} of a Kyma CLI {@code config.yaml} as APIRules of {@code gateway.kyma-project.io/v2}, the
 * version Kyma's API Gateway serves now (the CLI wrote v1beta1, which Kyma removed). Each part that v2 can say the
 * same way is translated; one it cannot is an error at its line, never a guess:
 *
 * <ul>
 *   <li>{@code name} (default: the Function's), {@code service.host} (default: the Function's name) as
 *       {@code spec.hosts}, {@code service.port} (default 80), {@code gateway} (default
 *       {@code kyma-system/kyma-gateway}; a {@code name.namespace.svc.cluster.local} address as
 *       {@code namespace/name});
 *   <li>a rule's {@code path}: {@code /.*} is {@code /*} (every path), {@code /prefix/.*} is
 *       {@code /prefix/{**}}, a path without regular-expression characters stays; any other expression is an
 *       error, as v2 takes no regular expressions;
 *   <li>its one access strategy: {@code allow} or {@code noop} is {@code noAuth: true}; {@code jwt} is
 *       {@code jwt.authentications} pairing {@code trustedIssuers[i]} with {@code jwksUrls[i]}, and
 *       {@code requiredScope} as {@code jwt.authorizations}; {@code oauth2_introspection} has no v2 equivalent.
 * </ul>
 */
final class KymaApiRules {

  static final String DEFAULT_GATEWAY = "kyma-system/kyma-gateway";
  private static final Pattern LITERAL_PATH = Pattern.compile("/[A-Za-z0-9/_~.-]*");
  private static final Pattern CLUSTER_ADDRESS = Pattern.compile(
      "([a-z0-9]([-a-z0-9]*[a-z0-9])?)\\.([a-z0-9]([-a-z0-9]*[a-z0-9])?)\\.svc\\.cluster\\.local");
  private static final List<String> RULE_KEYS = List.of("name", "gateway", "service", "rules");
  private static final List<String> SERVICE_KEYS = List.of("host", "port");
  private static final List<String> PATH_KEYS = List.of("path", "methods", "accessStrategies");

  private final YamlDocument config;
  private final String functionName;
  private final String namespace;
  private final List<ManifestError> errors;

  KymaApiRules(YamlDocument config, String functionName, String namespace, List<ManifestError> errors) {
    this.config = config;
    this.functionName = functionName;
    this.namespace = namespace;
    this.errors = errors;
  }

  List<DeclaredObject> translate(JsonNode apiRules) {
    List<DeclaredObject> rules = new ArrayList<>();
    if (!apiRules.isArray()) {
      error("apiRules", "is not a list");
      return rules;
    }
    for (int i = 0; i < apiRules.size(); i++) {
      translate(apiRules.get(i), "apiRules[" + i + "]").ifPresent(rules::add);
    }
    return rules;
  }

  private Optional<DeclaredObject> translate(JsonNode rule, String at) {
    int before = errors.size();
    if (!rule.isObject()) {
      error(at, "is not a mapping");
      return Optional.empty();
    }
    knownKeys(rule, at, RULE_KEYS);
    knownKeys(rule.path("service"), at + ".service", SERVICE_KEYS);
    String name = text(rule.path("name"), at + ".name", functionName);
    String host = text(rule.path("service").path("host"), at + ".service.host", functionName);
    long port = rule.path("service").path("port").isMissingNode() ? 80 : rule.path("service").path("port").asLong(-1);
    if (port < 1 || port > 65535) {
      error(at + ".service.port", "is not a port number (1 to 65535)");
    }
    String gateway = gateway(text(rule.path("gateway"), at + ".gateway", DEFAULT_GATEWAY), at + ".gateway");
    List<Map<String, Object>> v2Rules = new ArrayList<>();
    JsonNode paths = rule.path("rules");
    if (!paths.isArray() || paths.isEmpty()) {
      error(at + ".rules", "is missing or empty; give each path its methods and access strategy (APIRule v2 has no"
          + " default, and gitfn does not expose a Function without being told how)");
    } else {
      for (int j = 0; j < paths.size(); j++) {
        rule(paths.get(j), at + ".rules[" + j + "]").ifPresent(v2Rules::add);
      }
    }
    if (errors.size() > before) {
      return Optional.empty();
    }
    Map<String, Object> spec = new LinkedHashMap<>();
    spec.put("hosts", List.of(host));
    spec.put("service", Map.of("name", functionName, "port", (int) port));
    spec.put("gateway", gateway);
    spec.put("rules", v2Rules);
    GenericKubernetesResource object = new GenericKubernetesResource();
    object.setApiVersion(ObjectType.API_RULE.apiVersion());
    object.setKind(ObjectType.API_RULE.kind());
    object.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(namespace).build());
    object.setAdditionalProperty("spec", spec);
    return Optional.of(new DeclaredObject(config.file(), config.line(at), object));
  }

  private Optional<Map<String, Object>> rule(JsonNode path, String at) {
    if (!path.isObject()) {
      error(at, "is not a mapping");
      return Optional.empty();
    }
    knownKeys(path, at, PATH_KEYS);
    Map<String, Object> rule = new LinkedHashMap<>();
    rule.put("path", path(text(path.path("path"), at + ".path", "/.*"), at + ".path"));
    List<String> methods = new ArrayList<>();
    path.path("methods").forEach(method -> methods.add(method.asText().toUpperCase(Locale.ROOT)));
    if (methods.isEmpty()) {
      error(at + ".methods", "is missing or empty; list the HTTP methods the path takes, as [GET, POST]");
    }
    rule.put("methods", methods);
    JsonNode strategies = path.path("accessStrategies");
    if (!strategies.isArray() || strategies.size() != 1) {
      error(at + ".accessStrategies", "must hold exactly one strategy (allow, noop or jwt); APIRule v2 gives a path"
          + " one way in");
      return Optional.of(rule);
    }
    JsonNode strategy = strategies.get(0);
    String handler = strategy.path("handler").asText("");
    String field = at + ".accessStrategies[0]";
    switch (handler) {
      case "allow", "noop" -> rule.put("noAuth", true);
      case "jwt" -> jwt(strategy.path("config"), field + ".config").ifPresent(jwt -> rule.put("jwt", jwt));
      case "oauth2_introspection" -> error(field + ".handler", "oauth2_introspection has no equivalent in APIRule"
          + " v2 (Kyma removed Ory Oathkeeper); declare an APIRule v2 of your own with extAuth, beside the Function");
      default -> error(field + ".handler", "`" + MetadataReader.shown(handler) + "` is not allow, noop, jwt or"
          + " oauth2_introspection");
    }
    return Optional.of(rule);
  }

  private Optional<Map<String, Object>> jwt(JsonNode config, String at) {
    List<String> issuers = texts(config.path("trustedIssuers"));
    List<String> jwks = texts(config.path("jwksUrls"));
    if (issuers.isEmpty() || issuers.size() != jwks.size()) {
      error(at, "needs trustedIssuers and jwksUrls of the same length: APIRule v2 pairs each issuer with its JWKS"
          + " URL (jwt.authentications), which " + issuers.size() + " issuers and " + jwks.size() + " URLs do not say");
      return Optional.empty();
    }
    List<Map<String, String>> authentications = new ArrayList<>();
    for (int i = 0; i < issuers.size(); i++) {
      authentications.add(Map.of("issuer", issuers.get(i), "jwksUri", jwks.get(i)));
    }
    Map<String, Object> jwt = new LinkedHashMap<>();
    jwt.put("authentications", authentications);
    List<String> scopes = texts(config.path("requiredScope"));
    if (!scopes.isEmpty()) {
      jwt.put("authorizations", List.of(Map.of("requiredScopes", scopes)));
    }
    return Optional.of(jwt);
  }

  /** A v1beta1 path (a regular expression) as v2 writes it, or null with an error when v2 cannot say it. */
  private String path(String path, String at) {
    if (path == null) {
      return null;
    }
    if (path.equals("/.*") || path.equals("/*")) {
      return "/*";
    }
    if (path.endsWith("/.*") && LITERAL_PATH.matcher(path.substring(0, path.length() - 3)).matches()) {
      return path.substring(0, path.length() - 2) + "{**}";
    }
    if (LITERAL_PATH.matcher(path).matches()) {
      return path;
    }
    error(at, "`" + MetadataReader.shown(path) + "` is a regular expression that APIRule v2 cannot say (it takes"
        + " exact paths, /* and the {*} and {**} operators); write the path so, or declare an APIRule v2 of your own");
    return null;
  }

  private String gateway(String gateway, String at) {
    if (gateway == null) {
      return null;
    }
    var address = CLUSTER_ADDRESS.matcher(gateway);
    if (address.matches()) {
      return address.group(3) + "/" + address.group(1);
    }
    if (!gateway.matches("[a-z0-9]([-a-z0-9]*[a-z0-9])?/[a-z0-9]([-a-z0-9]*[a-z0-9])?")) {
      error(at, "`" + MetadataReader.shown(gateway) + "` is not namespace/name of an Istio Gateway (nor"
          + " name.namespace.svc.cluster.local)");
      return null;
    }
    return gateway;
  }

  private String text(JsonNode value, String at, String otherwise) {
    if (value.isMissingNode() || value.isNull()) {
      return otherwise;
    }
    if (!value.isValueNode()) {
      error(at, "must be a single value, not a list or mapping");
      return null;
    }
    return value.asText();
  }

  private static List<String> texts(JsonNode values) {
    List<String> texts = new ArrayList<>();
    if (values.isTextual()) {
      texts.add(values.asText());
    }
    values.forEach(value -> texts.add(value.asText()));
    return texts;
  }

  private void knownKeys(JsonNode node, String at, List<String> known) {
    node.fieldNames().forEachRemaining(key -> {
      if (!known.contains(key)) {
        error(at + "." + key, "unknown field `" + key + "` of a Kyma CLI config.yaml; a typo? Known here: "
            + String.join(", ", known));
      }
    });
  }

  private void error(String field, String message) {
    errors.add(config.error(field, message));
  }
}
