package io.gitfn.trigger.webhook;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.io.InputStream;
import java.time.Clock;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HTTP edge of the webhook receiver: {@code POST /<forge>} relative to where it is mounted ({@link
 * WebhookServer} mounts it at {@code /hooks}). It reads at most {@link WebhookSettings#maxBodyBytes()} of the body,
 * hands it to the forge's parser and to {@link PushFanout} (pull requests on to {@link PullRequestTargets}), and answers with a JSON object that says what
 * happened. It logs one line per request and never logs a secret or a signature.
 */
public final class WebhookReceiver extends Handler.Abstract {

  private static final Logger LOG = LoggerFactory.getLogger(WebhookReceiver.class);
  private static final ObjectMapper JSON = new ObjectMapper();

  private final WebhookSettings settings;
  private final Map<Forge, ForgeParser> parsers = new EnumMap<>(Forge.class);
  private final PushFanout fanout;
  private final MeterRegistry registry;
  private final BooleanSupplier leading;
  // Fair, so that a delivery waiting for a slot is not overtaken by a flood that arrived after it.
  private final Semaphore slots;

  public WebhookReceiver(WebhookTargets targets, WebhookSettings settings, Clock clock) {
    this(targets, settings, clock, new SimpleMeterRegistry(), () -> true);
  }

  /**
   * A receiver that counts deliveries in {@code registry} and, while {@code leading} says this instance is a
   * standby, triggers nothing.
   */
  public WebhookReceiver(WebhookTargets targets, WebhookSettings settings, Clock clock, MeterRegistry registry,
      BooleanSupplier leading) {
    this(targets, PullRequestTargets.NOT_ENABLED, settings, clock, registry, leading);
  }

  /** As above, handing verified pull-request deliveries to {@code pullRequests}. */
  public WebhookReceiver(WebhookTargets targets, PullRequestTargets pullRequests, WebhookSettings settings,
      Clock clock, MeterRegistry registry, BooleanSupplier leading) {
    this.registry = Objects.requireNonNull(registry, "registry");
    this.leading = Objects.requireNonNull(leading, "leading");
    this.settings = Objects.requireNonNull(settings, "settings");
    this.slots = new Semaphore(settings.maxConcurrentDeliveries(), true);
    parsers.put(Forge.GITHUB, new GitHubParser());
    parsers.put(Forge.GITLAB, new GitLabParser());
    parsers.put(Forge.GITEA, new GiteaParser());
    parsers.put(Forge.BITBUCKET, new BitbucketParser());
    parsers.put(Forge.GENERIC, new GenericParser());
    this.fanout = new PushFanout(Objects.requireNonNull(targets, "targets"),
        Objects.requireNonNull(pullRequests, "pullRequests"), new SignatureVerifier(),
        settings.globalSecret(),
        new RecentDeliveries(Objects.requireNonNull(clock, "clock"), settings.dedupeWindow(),
            RecentDeliveries.DEFAULT_CAPACITY));
  }

  @Override
  public boolean handle(Request request, Response response, Callback callback) {
    String path = Request.getPathInContext(request);
    Reply reply = answer(request, path);
    count(path, reply);
    if (reply.status() == 405) {
      response.getHeaders().put(HttpHeader.ALLOW, HttpMethod.POST.asString());
    }
    response.setStatus(reply.status());
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json");
    Content.Sink.write(response, true, json(reply), callback);
    return true;
  }

  private Reply answer(Request request, String path) {
    String segment = path.startsWith("/") ? path.substring(1) : path;
    Optional<Forge> forge = Forge.forPathSegment(segment.endsWith("/")
        ? segment.substring(0, segment.length() - 1) : segment);
    if (forge.isEmpty()) {
      return logged(path, Reply.error(404, "no webhook receiver at " + path
          + "; use /hooks/github, /hooks/gitlab, /hooks/gitea, /hooks/bitbucket or /hooks/generic"));
    }
    Forge f = forge.get();
    if (!HttpMethod.POST.is(request.getMethod())) {
      return logged(path, Reply.error(f, 405, "webhooks are delivered with POST, not " + request.getMethod()));
    }
    if (!takeSlot()) {
      return logged(path, Reply.error(f, 503, "too many deliveries at once; the forge may deliver it again"));
    }
    try {
      return answer(request, path, f);
    } finally {
      slots.release();
    }
  }

  /**
   * A delivery that holds one of the slots: at most {@link WebhookSettings#maxConcurrentDeliveries()} bodies are
   * read, parsed and verified at once, however many arrive.
   */
  private Reply answer(Request request, String path, Forge f) {
    Optional<byte[]> read;
    try {
      read = readBody(request);
    } catch (BoundedBody.SlowSenderException e) {
      return logged(path, Reply.error(f, 408, e.getMessage()));
    } catch (IOException e) {
      return logged(path, Reply.error(f, 400, "the body cannot be read: " + e.getMessage()));
    }
    if (read.isEmpty()) {
      return logged(path, Reply.error(f, 413, "the body is larger than " + settings.maxBodyBytes() + " bytes"));
    }
    byte[] body = read.get();
    if (!leading.getAsBoolean()) {
      // A standby tracks no source, so it would answer "nothing to trigger" and the push would be lost; a 503
      // tells the forge the delivery failed, so it shows as such and can be redelivered. Polling covers it meanwhile.
      return logged(path, Reply.error(f, 503, "this gitfn instance is a standby; the leader handles webhooks"));
    }
    Delivery delivery;
    try {
      delivery = parsers.get(f).parse(headers(request), body);
    } catch (MalformedDeliveryException e) {
      return logged(path, Reply.error(f, 400, e.getMessage()));
    }
    Reply reply;
    try {
      reply = fanout.deliver(delivery, body);
    } catch (RuntimeException e) {
      // The forge retries a 5xx later; polling covers the push meanwhile.
      LOG.error("webhook {} delivery {}: finding or triggering sources failed", f.pathSegment(),
          delivery.deliveryId(), e);
      reply = Reply.about(delivery, 500, 0, "gitfn could not look up the sources for this push; see its log");
    }
    LOG.info("webhook {} delivery={} event={} repository={} ref={}: {}", f.pathSegment(),
        delivery.deliveryId() == null ? "-" : delivery.deliveryId(), delivery.event(),
        delivery.repositories().isEmpty() ? "-" : delivery.repositories().get(0).matchKey(),
        ref(delivery),
        reply.outcome());
    return reply;
  }

  /** The pushed ref (and how many more), or the pull request's number and action, for the log line. */
  private static String ref(Delivery delivery) {
    if (delivery.pullRequest() != null) {
      return "pull request #" + delivery.pullRequest().number() + " " + delivery.pullRequest().action();
    }
    return delivery.changes().isEmpty() ? "-" : delivery.changes().get(0).ref()
        + (delivery.changes().size() > 1 ? " (+" + (delivery.changes().size() - 1) + ")" : "");
  }

  /** {@code gitfn_webhook_deliveries_total{forge, result}}; see {@link Reply#result()}. */
  private void count(String path, Reply reply) {
    String segment = path.replaceAll("^/+|/+$", "");
    String forge = Forge.forPathSegment(segment).map(Forge::pathSegment).orElse("unknown");
    Counter.builder("gitfn.webhook.deliveries").description("Webhook requests, by forge and result")
        .tag("forge", forge).tag("result", reply.result()).register(registry).increment();
  }

  private boolean takeSlot() {
    try {
      return slots.tryAcquire(settings.slotWait().toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  private Optional<byte[]> readBody(Request request) throws IOException {
    try (InputStream in = Content.Source.asInputStream(request)) {
      return BoundedBody.read(in, request.getLength(), settings.maxBodyBytes(),
          System.nanoTime() + settings.readTimeout().toNanos());
    }
  }

  private static Headers headers(Request request) {
    Map<String, String> map = new HashMap<>();
    for (HttpField field : request.getHeaders()) {
      map.putIfAbsent(field.getLowerCaseName(), field.getValue() == null ? "" : field.getValue());
    }
    return new Headers(map);
  }

  private static Reply logged(String path, Reply reply) {
    LOG.info("webhook request to {}: {}", path, reply.outcome());
    return reply;
  }

  private static String json(Reply reply) {
    try {
      return JSON.writeValueAsString(reply.body());
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a reply is plain strings and numbers", e);
    }
  }
}
