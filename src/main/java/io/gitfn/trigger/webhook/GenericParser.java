package io.gitfn.trigger.webhook;

import java.util.List;

/**
 * Any sender that can sign: {@code X-Signature: sha256=<hex HMAC-SHA256 of the body>}, an optional
 * {@code X-Delivery-Id}, and the body {@code {"repository": "<git url>", "ref": "refs/heads/main", "after": "<sha>"}}
 * where {@code after} may be left out or null for a deleted ref.
 */
final class GenericParser implements ForgeParser {

  static final String EVENT = "push";
  private static final PayloadFields FIELDS = PayloadFields.of("repository", "ref", "after");

  @Override
  public Delivery parse(Headers headers, byte[] body) throws MalformedDeliveryException {
    Payload payload = Payload.parse(body, FIELDS);
    return Delivery.push(
        Forge.GENERIC,
        headers.get("X-Delivery-Id").orElse(null),
        EVENT,
        payload.repositoryUrls("repository"),
        List.of(RefChange.of(payload.ref("ref"), payload.optionalText("after").orElse(null))),
        Proof.prefixedHmac(headers, "X-Signature"));
  }
}
