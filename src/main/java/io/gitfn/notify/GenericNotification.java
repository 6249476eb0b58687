package io.gitfn.notify;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.URI;
import java.security.InvalidKeyException;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * A commit's status for any receiver that is not a forge: a small JSON document, signed as GitHub signs its
 * webhooks, so the receiver can tell gitfn's notifications from anyone else's.
 *
 * <pre>{@code
 * POST <endpoint>
 * Content-Type: application/json
 * X-Gitfn-Signature: sha256=<hex HMAC-SHA256 of the body under the shared secret>
 *
 * {"kind":"FunctionRepository","namespace":"shop","name":"functions","revision":"main@sha1:3f2a...",
 *  "sha":"3f2a...","state":"success","reason":"Succeeded","message":"Applied 3 Functions",
 *  "context":"gitfn/functions","targetUrl":"https://...","time":"2024-05-01T10:00:00Z","cluster":"prod-eu"}
 * }</pre>
 *
 * <p>{@code targetUrl} and {@code cluster} are left out when there are none; {@code message} is the status's
 * description, whole.
 *
 * @param kind the kind of the resource the status is about
 * @param namespace the resource's namespace
 * @param name the resource's name
 * @param revision the revision as the resource's status names it, such as {@code main@sha1:<sha>}
 * @param status the commit status the forges get
 * @param reason the reason of the condition behind the status, such as {@code Succeeded}
 * @param time when the status was reached; sent to the second
 * @param cluster the name of the cluster gitfn runs in, or null
 */
public record GenericNotification(Kind kind, String namespace, String name, String revision, CommitStatus status,
    String reason, Instant time, String cluster) {

  /** The header that carries the signature, as {@code sha256=<hex>}. */
  public static final String SIGNATURE_HEADER = "X-Gitfn-Signature";
  private static final String HMAC = "HmacSHA256";

  /** The kinds of resource gitfn reports on. */
  public enum Kind {
    FUNCTION_REPOSITORY("FunctionRepository"),
    FUNCTION("Function");

    private final String kind;

    Kind(String kind) {
      this.kind = kind;
    }

    /** The Kubernetes kind, as the JSON has it. */
    public String kind() {
      return kind;
    }
  }

  public GenericNotification {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(status, "status");
    Objects.requireNonNull(time, "time");
    requireText(namespace, "namespace");
    requireText(name, "name");
    requireText(revision, "revision");
    requireText(reason, "reason");
  }

  /** The JSON body; the same bytes for the same notification, so they can be signed and checked. */
  public byte[] body() {
    ObjectNode json = Json.object()
        .put("kind", kind.kind())
        .put("namespace", namespace)
        .put("name", name)
        .put("revision", revision)
        .put("sha", status.sha())
        .put("state", status.state().word())
        .put("reason", reason)
        .put("message", status.description())
        .put("context", status.context());
    if (status.targetUrl() != null) {
      json.put("targetUrl", status.targetUrl());
    }
    json.put("time", time.truncatedTo(ChronoUnit.SECONDS).toString());
    if (cluster != null && !cluster.isBlank()) {
      json.put("cluster", cluster);
    }
    return Json.bytes(json);
  }

  /**
   * The signed POST of {@link #body()} to {@code endpoint}.
   *
   * @param endpoint an absolute http(s) URL without user info
   * @param secret the shared secret; required, because an unsigned notification could come from anyone
   */
  public ForgeRequest request(URI endpoint, byte[] secret) {
    Objects.requireNonNull(endpoint, "endpoint");
    String scheme = endpoint.getScheme() == null ? "" : endpoint.getScheme().toLowerCase(Locale.ROOT);
    if (!(scheme.equals("https") || scheme.equals("http")) || endpoint.getHost() == null) {
      throw new IllegalArgumentException("notification endpoint " + endpoint.getHost()
          + ": it is not an absolute http or https URL");
    }
    if (endpoint.getRawUserInfo() != null) {
      throw new IllegalArgumentException("notification endpoint " + endpoint.getHost()
          + ": it has user info in it; the shared secret signs the notification instead");
    }
    byte[] body = body();
    Map<String, String> headers = new LinkedHashMap<>();
    headers.put("Content-Type", "application/json");
    headers.put(SIGNATURE_HEADER, signature(body, secret));
    return new ForgeRequest("POST", endpoint, headers, body);
  }

  /** {@code sha256=<hex HMAC-SHA256 of body under secret>}, as GitHub's X-Hub-Signature-256 is made. */
  public static String signature(byte[] body, byte[] secret) {
    if (secret == null || secret.length == 0) {
      throw new IllegalArgumentException("the shared secret for generic notifications is empty");
    }
    try {
      Mac mac = Mac.getInstance(HMAC);
      mac.init(new SecretKeySpec(secret, HMAC));
      return "sha256=" + HexFormat.of().formatHex(mac.doFinal(body));
    } catch (NoSuchAlgorithmException | InvalidKeyException e) {
      throw new IllegalStateException("HmacSHA256 is part of every Java runtime", e);
    }
  }

  private static void requireText(String value, String field) {
    if (value == null || value.isBlank()) {
      throw new IllegalArgumentException("a generic notification needs a " + field);
    }
  }
}
