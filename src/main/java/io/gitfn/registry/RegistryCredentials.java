package io.gitfn.registry;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A registry user and password, or a token as the password, as a {@code kubernetes.io/dockerconfigjson} Secret (the
 * one the builder pushes with) holds them. {@link #toString()} never shows the password.
 */
public record RegistryCredentials(String username, String password) {

  public static final String DOCKER_CONFIG_KEY = ".dockerconfigjson";
  // Docker files Docker Hub's credentials under https://index.docker.io/v1/ and serves its API elsewhere.
  private static final Set<String> DOCKER_HUB = Set.of("docker.io", "index.docker.io", "registry-1.docker.io");
  private static final ObjectMapper JSON = new ObjectMapper();

  public RegistryCredentials {
    if (username == null || password == null) {
      throw new IllegalArgumentException("registry credentials need a username and a password");
    }
  }

  /**
   * The credentials for {@code host} in a Secret's data, or empty when it has none for that host.
   *
   * @param data the Secret's data, already base64-decoded as the reconcilers read Secrets; null or empty when
   *     there is no Secret
   * @param host the registry's host[:port]
   * @throws IllegalArgumentException when {@code .dockerconfigjson} is not what Docker writes; the message says
   *     where and shows no value
   */
  public static Optional<RegistryCredentials> forHost(Map<String, String> data, String host) {
    if (data == null || data.get(DOCKER_CONFIG_KEY) == null) {
      return Optional.empty();
    }
    return fromDockerConfig(data.get(DOCKER_CONFIG_KEY), host);
  }

  /** The {@code auths} entry whose key names {@code host}, with or without a scheme and path. */
  public static Optional<RegistryCredentials> fromDockerConfig(String dockerConfigJson, String host) {
    JsonNode auths = parse(dockerConfigJson).path("auths");
    String wanted = host.toLowerCase(Locale.ROOT);
    for (Map.Entry<String, JsonNode> entry : auths.properties()) {
      if (sameRegistry(hostOf(entry.getKey()), wanted)) {
        return Optional.of(fromEntry(entry.getKey(), entry.getValue()));
      }
    }
    return Optional.empty();
  }

  private static JsonNode parse(String json) {
    try {
      JsonNode root = JSON.readTree(json);
      if (root == null || !root.isObject()) {
        throw new IllegalArgumentException(DOCKER_CONFIG_KEY + " is not a JSON object");
      }
      return root;
    } catch (JsonProcessingException e) {
      // Jackson's own message quotes the text it choked on, which may be a password.
      throw new IllegalArgumentException(DOCKER_CONFIG_KEY + " is not valid JSON (line "
          + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr() + ")");
    }
  }

  private static RegistryCredentials fromEntry(String key, JsonNode entry) {
    String auth = entry.path("auth").asText("");
    if (!auth.isEmpty()) {
      String decoded;
      try {
        decoded = new String(Base64.getDecoder().decode(auth), StandardCharsets.UTF_8);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("auths[" + key + "].auth in " + DOCKER_CONFIG_KEY + " is not base64");
      }
      int colon = decoded.indexOf(':');
      if (colon < 0) {
        throw new IllegalArgumentException(
            "auths[" + key + "].auth in " + DOCKER_CONFIG_KEY + " is not base64 of username:password");
      }
      return new RegistryCredentials(decoded.substring(0, colon), decoded.substring(colon + 1));
    }
    if (entry.hasNonNull("username") && entry.hasNonNull("password")) {
      return new RegistryCredentials(entry.get("username").asText(), entry.get("password").asText());
    }
    throw new IllegalArgumentException("auths[" + key + "] in " + DOCKER_CONFIG_KEY
        + " has neither auth nor username and password (identity tokens are not supported)");
  }

  /** {@code https://registry.local:5000/v1/} and {@code registry.local:5000} both name registry.local:5000. */
  static String hostOf(String key) {
    String host = key.strip().toLowerCase(Locale.ROOT);
    int scheme = host.indexOf("://");
    if (scheme >= 0) {
      host = host.substring(scheme + 3);
    }
    int slash = host.indexOf('/');
    return slash < 0 ? host : host.substring(0, slash);
  }

  private static boolean sameRegistry(String a, String b) {
    return a.equals(b) || (DOCKER_HUB.contains(a) && DOCKER_HUB.contains(b));
  }

  /** The {@code Authorization} header value for HTTP basic auth. */
  public String basicAuthorization() {
    return "Basic " + Base64.getEncoder().encodeToString((username + ":" + password).getBytes(StandardCharsets.UTF_8));
  }

  @Override
  public String toString() {
    return "RegistryCredentials[username=" + username + ", password=***]";
  }
}
