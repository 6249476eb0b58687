package io.gitfn.bench;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.HexFormat;
import java.util.concurrent.atomic.AtomicInteger;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * What a forge sends after a push, as gitfn's generic endpoint takes it: the JSON body signed with the webhook
 * Secret's token (see docs/sources-and-webhooks.md).
 */
final class GenericWebhook {

  private final URI endpoint;
  private final String token;
  private final HttpClient http = HttpClient.newHttpClient();
  private final AtomicInteger deliveries = new AtomicInteger();

  /** @param hooks the receiver's base, ending in {@code /hooks/} */
  GenericWebhook(URI hooks, String token) {
    this.endpoint = hooks.resolve("generic");
    this.token = token;
  }

  /** Reports that {@code main} of {@code repository} moved to {@code sha}; fails unless the receiver accepts it. */
  void push(String repository, String sha) throws IOException, InterruptedException {
    byte[] body = ("{\"repository\":\"" + repository + "\",\"ref\":\"refs/heads/main\",\"after\":\"" + sha + "\"}")
        .getBytes(StandardCharsets.UTF_8);
    HttpResponse<String> response = http.send(HttpRequest.newBuilder(endpoint)
        .header("Content-Type", "application/json")
        .header("X-Delivery-Id", "bench-" + deliveries.incrementAndGet())
        .header("X-Signature", "sha256=" + hmac(body))
        .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(), HttpResponse.BodyHandlers.ofString());
    if (response.statusCode() != 202) {
      throw new IllegalStateException("the webhook for " + sha + " answered " + response.statusCode() + ": "
          + response.body());
    }
  }

  private String hmac(byte[] body) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(token.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
      return HexFormat.of().formatHex(mac.doFinal(body));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }
}
