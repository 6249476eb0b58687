package io.gitfn.trigger.webhook;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What the receiver answers: an HTTP status and a JSON object that says what happened, such as
 * {@code {"forge":"github","delivery":"…","event":"push","repository":"github.com/org/repo",
 * "ref":"refs/heads/main","triggered":2,"result":"triggered"}}; a pull-request delivery names
 * {@code pullRequest} (its number) and {@code action} instead of refs.
 */
record Reply(int status, Map<String, Object> body) {

  Reply {
    body = Collections.unmodifiableMap(new LinkedHashMap<>(body));
  }

  /** A reply about a delivery that was read: names its forge, id, event, repository and refs. */
  static Reply about(Delivery delivery, int status, int triggered, String result) {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("forge", delivery.forge().pathSegment());
    if (delivery.deliveryId() != null) {
      body.put("delivery", delivery.deliveryId());
    }
    body.put("event", delivery.event());
    if (!delivery.repositories().isEmpty()) {
      body.put("repository", delivery.repositories().get(0).matchKey());
    }
    List<String> refs = delivery.changes().stream().map(RefChange::ref).toList();
    if (refs.size() == 1) {
      body.put("ref", refs.get(0));
    } else if (!refs.isEmpty()) {
      body.put("refs", refs);
    }
    if (delivery.pullRequest() != null) {
      body.put("pullRequest", delivery.pullRequest().number());
      body.put("action", delivery.pullRequest().action().name().toLowerCase(Locale.ROOT));
    }
    body.put("triggered", triggered);
    body.put(status >= 400 ? "error" : "result", result);
    return new Reply(status, body);
  }

  /** A reply about a request that never became a delivery (unknown path, wrong method, too large, malformed). */
  static Reply error(int status, String message) {
    return new Reply(status, Map.of("error", message));
  }

  static Reply error(Forge forge, int status, String message) {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("forge", forge.pathSegment());
    body.put("error", message);
    return new Reply(status, body);
  }

  /**
   * The reply in one word, for the deliveries metric: {@code triggered}, {@code ignored} (nothing to trigger:
   * a ping, another event, a duplicate, an untracked repository), {@code unauthorized}, {@code invalid} (a
   * malformed, oversized or misrouted request), {@code standby} or {@code error}.
   */
  String result() {
    if (status == 202) {
      return "triggered";
    }
    if (status < 300) {
      return "ignored";
    }
    if (status == 401 || status == 403) {
      return "unauthorized";
    }
    if (status == 503) {
      return "standby";
    }
    return status < 500 ? "invalid" : "error";
  }

  /** The result or error message, for the log line. */
  String outcome() {
    Object text = body.containsKey("error") ? body.get("error") : body.get("result");
    return status + " " + text;
  }
}
