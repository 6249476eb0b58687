package io.gitfn.reconcile.registry;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.gitfn.build.ImageReference;
import io.gitfn.registry.RegistryCredentials;
import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.channels.UnresolvedAddressException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import javax.net.ssl.SSLException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Asks an image's registry whether it holds the image: {@code HEAD /v2/<repository>/manifests/<tag>} of the OCI
 * distribution API. It asks anonymously first and answers the registry's challenge once: a bearer token from the
 * realm the registry names, or basic auth, with the credentials of the Secret the builder pushes with.
 *
 * <p>Every failure is an answer too, {@link Result.Answer#UNKNOWN} with the reason, never an exception: the caller
 * then builds, which is always safe. No message carries a credential or a token.
 */
public final class RegistryLookup {

  private static final Logger LOG = LoggerFactory.getLogger(RegistryLookup.class);
  // Without the OCI and manifest-list types a registry may answer 404 for an image it holds in those formats.
  static final String MANIFEST_TYPES = String.join(", ",
      "application/vnd.oci.image.index.v1+json",
      "application/vnd.oci.image.manifest.v1+json",
      "application/vnd.docker.distribution.manifest.list.v2+json",
      "application/vnd.docker.distribution.manifest.v2+json");
  private static final int TOKEN_RESPONSE_LIMIT = 64 * 1024;
  // RFC 6750's b64token: what may follow "Bearer " in a header.
  private static final Pattern TOKEN = Pattern.compile("[A-Za-z0-9._~+/-]+=*");
  private static final ObjectMapper JSON = new ObjectMapper();

  private final RegistryLookupSettings settings;
  private final HttpClient http;

  public RegistryLookup(RegistryLookupSettings settings) {
    this.settings = settings;
    this.http = HttpClient.newBuilder()
        .version(HttpClient.Version.HTTP_1_1)
        .connectTimeout(settings.timeout())
        // A followed redirect would carry the Authorization header wherever it points.
        .followRedirects(HttpClient.Redirect.NEVER)
        .build();
  }

  /** What the registry said about one image; {@code message} says what was asked and why the answer is what it is. */
  public record Result(Answer answer, String message) {

    public enum Answer { EXISTS, ABSENT, UNKNOWN }

    public boolean exists() {
      return answer == Answer.EXISTS;
    }

    static Result found(ImageReference image) {
      return new Result(Answer.EXISTS, "registry " + image.registry() + " has " + image);
    }

    static Result absent(ImageReference image) {
      return new Result(Answer.ABSENT, "registry " + image.registry() + " does not have " + image);
    }

    static Result unknown(String reason) {
      return new Result(Answer.UNKNOWN, reason);
    }
  }

  /**
   * Whether the registry holds {@code image}. Takes at most the configured timeout; says UNKNOWN at once when the
   * lookup is off.
   *
   * @param image as {@link io.gitfn.build.BuildJobSpec#image} names it, {@code <registry>/<repository>:<tag>}
   * @param registrySecretData the data of the builder's {@code kubernetes.io/dockerconfigjson} Secret, already
   *     base64-decoded; null or empty to ask anonymously
   */
  /** Whether the lookup is on; when it is off, callers need not read the registry Secret. */
  public boolean enabled() {
    return settings.enabled();
  }

  public Result check(String image, Map<String, String> registrySecretData) {
    if (!settings.enabled()) {
      return Result.unknown("the registry lookup is off");
    }
    ImageReference reference;
    Optional<RegistryCredentials> credentials;
    try {
      reference = ImageReference.parse(image);
      credentials = RegistryCredentials.forHost(registrySecretData, reference.registry());
    } catch (IllegalArgumentException e) {
      return logged(image, Result.unknown(e.getMessage())); // their messages name no secret
    }
    try {
      return logged(image, new Exchange(reference, credentials).run());
    } catch (Unanswered e) {
      return logged(image, Result.unknown(e.getMessage()));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return logged(image, Result.unknown("the lookup of " + image + " was interrupted"));
    } catch (RuntimeException e) {
      // Its message might quote a header value, a token: name the class only.
      return logged(image, Result.unknown("the lookup of " + image + " failed with " + e.getClass().getName()));
    }
  }

  private static Result logged(String image, Result result) {
    if (result.answer() == Result.Answer.UNKNOWN) {
      LOG.info("Registry lookup of {}: {}", image, result.message());
    } else {
      LOG.debug("Registry lookup of {}: {}", image, result.message());
    }
    return result;
  }

  /** One lookup: the anonymous HEAD, then a token or basic auth when the registry asks for them. */
  private final class Exchange {

    private final ImageReference image;
    private final Optional<RegistryCredentials> credentials;
    private final long deadline;

    Exchange(ImageReference image, Optional<RegistryCredentials> credentials) {
      this.image = image;
      this.credentials = credentials;
      this.deadline = System.nanoTime() + settings.timeout().toNanos();
    }

    Result run() throws Unanswered, InterruptedException {
      HttpResponse<Void> anonymous = head(null);
      if (anonymous.statusCode() != 401) {
        return answer(anonymous, "");
      }
      AuthChallenge challenge = anonymous.headers().allValues("WWW-Authenticate").stream()
          .map(AuthChallenge::parse).flatMap(Optional::stream)
          .filter(c -> c.is("bearer") || c.is("basic"))
          .findFirst()
          .orElseThrow(() -> new Unanswered(image.registry() + " answered 401 without a bearer or basic challenge"));
      if (challenge.is("bearer")) {
        return answer(head("Bearer " + token(challenge)), " with a bearer token");
      }
      RegistryCredentials basic = credentials.orElseThrow(() -> new Unanswered(image.registry()
          + " asks for basic auth, and the registry Secret has no credentials for it"));
      return answer(head(basic.basicAuthorization()), " with basic auth");
    }

    private Result answer(HttpResponse<Void> response, String how) throws Unanswered {
      int status = response.statusCode();
      if (status == 200) {
        return Result.found(image);
      }
      if (status == 404) {
        return Result.absent(image);
      }
      if (status == 401 || status == 403) {
        throw new Unanswered(image.registry() + " refused to show " + image + how + " (" + status + ")");
      }
      throw new Unanswered(image.registry() + " answered " + status + " when asked for " + image + how);
    }

    private HttpResponse<Void> head(String authorization) throws Unanswered, InterruptedException {
      URI manifest = URI.create(scheme(image.registry()) + "://" + apiHost(image.registry()) + "/v2/"
          + image.repository() + "/manifests/" + image.tag());
      HttpRequest.Builder request = HttpRequest.newBuilder(manifest)
          .method("HEAD", HttpRequest.BodyPublishers.noBody())
          .header("Accept", MANIFEST_TYPES);
      if (authorization != null) {
        request.header("Authorization", authorization);
      }
      return send(request, HttpResponse.BodyHandlers.discarding(), image.registry());
    }

    /** A pull token for the repository from the realm in the registry's challenge. */
    private String token(AuthChallenge challenge) throws Unanswered, InterruptedException {
      URI realm = realm(challenge);
      String scope = "repository:" + image.repository() + ":pull";
      String query = challenge.parameter("service").map(s -> "service=" + encode(s) + "&").orElse("")
          + "scope=" + encode(scope);
      String where = "the token realm " + describe(realm) + " of " + image.registry();
      HttpRequest.Builder request = HttpRequest.newBuilder(
          URI.create(realm + (realm.getRawQuery() == null ? "?" : "&") + query))
          .GET()
          .header("Accept", "application/json");
      credentials.ifPresent(c -> request.header("Authorization", c.basicAuthorization()));
      HttpResponse<InputStream> response = send(request, HttpResponse.BodyHandlers.ofInputStream(), where);
      try (InputStream body = response.body()) {
        if (response.statusCode() != 200) {
          throw new Unanswered(where + " answered " + response.statusCode() + " for " + scope
              + (credentials.isPresent() ? "" : " without credentials"));
        }
        JsonNode json = JSON.readTree(body.readNBytes(TOKEN_RESPONSE_LIMIT));
        // Docker's token spec names it token; OAuth2 servers answer access_token.
        String token = json == null ? "" : json.path("token").asText(json.path("access_token").asText(""));
        if (token.isEmpty()) {
          throw new Unanswered(where + " answered without a token or access_token");
        }
        if (!TOKEN.matcher(token).matches()) {
          throw new Unanswered(where + " answered a token that cannot go in an Authorization header");
        }
        return token;
      } catch (IOException e) {
        throw new Unanswered(where + " answered with a body that is not a JSON token");
      }
    }

    /** The challenge's realm, when it is HTTPS or a plain-HTTP host listed as insecure. */
    private URI realm(AuthChallenge challenge) throws Unanswered {
      String text = challenge.parameter("realm").orElseThrow(() -> new Unanswered(
          image.registry() + " asks for a bearer token but names no realm to get it from"));
      URI realm;
      try {
        realm = new URI(text);
      } catch (java.net.URISyntaxException e) {
        throw new Unanswered(image.registry() + " names a token realm that is not a URL");
      }
      if ("https".equalsIgnoreCase(realm.getScheme())) {
        return realm;
      }
      if ("http".equalsIgnoreCase(realm.getScheme()) && realm.getHost() != null
          && settings.insecure(hostAndPort(realm))) {
        return realm;
      }
      throw new Unanswered("the token realm " + describe(realm) + " of " + image.registry()
          + " is not HTTPS; list " + hostAndPort(realm) + " as an insecure registry to ask it over HTTP");
    }

    private <T> HttpResponse<T> send(HttpRequest.Builder request, HttpResponse.BodyHandler<T> body, String where)
        throws Unanswered, InterruptedException {
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        throw new Unanswered(where + " did not answer within " + settings.timeout().toMillis() + " ms");
      }
      try {
        return http.send(request.timeout(Duration.ofNanos(left)).build(), body);
      } catch (HttpTimeoutException e) {
        throw new Unanswered(where + " did not answer within " + settings.timeout().toMillis() + " ms");
      } catch (IOException e) {
        throw new Unanswered("cannot reach " + where + ": " + reason(e));
      }
    }
  }

  // Docker Hub's images are named docker.io/…, and its API answers on another host.
  private static String apiHost(String registry) {
    return registry.equals("docker.io") || registry.equals("index.docker.io") ? "registry-1.docker.io" : registry;
  }

  private String scheme(String host) {
    return settings.insecure(host) ? "http" : "https";
  }

  /** The JDK client's exceptions often carry their reason only in a cause, or only in their type. */
  private static String reason(IOException e) {
    if (e instanceof SSLException) {
      return e.getMessage() + "; if it serves plain HTTP, list it as an insecure registry";
    }
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof UnresolvedAddressException) {
        return "its host name does not resolve";
      }
      if (t.getMessage() != null) {
        return t.getMessage();
      }
    }
    return e instanceof ConnectException ? "connection refused" : e.getClass().getSimpleName();
  }

  private static String encode(String value) {
    return URLEncoder.encode(value, StandardCharsets.UTF_8);
  }

  /** The realm without its query or user info, for messages. */
  private static String describe(URI realm) {
    return realm.getScheme() + "://" + hostAndPort(realm) + (realm.getRawPath() == null ? "" : realm.getRawPath());
  }

  private static String hostAndPort(URI uri) {
    return uri.getHost() + (uri.getPort() < 0 ? "" : ":" + uri.getPort());
  }

  /** Why the registry gave no answer; becomes {@link Result.Answer#UNKNOWN}. */
  private static final class Unanswered extends Exception {
    Unanswered(String reason) {
      super(reason, null, false, false);
    }
  }
}
