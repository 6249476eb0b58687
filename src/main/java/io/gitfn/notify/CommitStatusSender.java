package io.gitfn.notify;

import java.io.IOException;
import java.net.ConnectException;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.channels.UnresolvedAddressException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.SSLException;

/**
 * Sends {@link ForgeRequest}s, the one class in this package that does I/O. Every outcome is a {@link SendResult},
 * never an exception: a forge that is down, slow, hostile or unreachable is an answer like any other.
 *
 * <ul>
 *   <li>A redirect is never followed: it would carry the token wherever it points. It is REJECTED, with where it
 *       points, so a person can set the API URL to the real one.
 *   <li>At most {@value #ANSWER_LIMIT} bytes of an answer are read; past them the connection is closed.
 *   <li>The whole exchange, answer included, ends within the connect timeout plus the request timeout.
 * </ul>
 *
 * <p>One sender is meant to be shared: it holds one {@link HttpClient}, which is thread-safe, and no other state.
 */
public final class CommitStatusSender {

  public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(10);
  /** The most of an answer the sender reads; a status answer is a few KiB. */
  public static final int ANSWER_LIMIT = 64 * 1024;
  // GitHub requires a User-Agent, and it names the caller in the forge's logs.
  static final String USER_AGENT = "gitfn";
  private static final AtomicInteger THREADS = new AtomicInteger();

  private final HttpClient http;
  private final Duration connectTimeout;
  private final Duration requestTimeout;
  private final Clock clock;

  /** A sender with 10 s to connect and 10 s for the answer. */
  public CommitStatusSender() {
    this(DEFAULT_TIMEOUT, DEFAULT_TIMEOUT, Clock.systemUTC());
  }

  public CommitStatusSender(Duration connectTimeout, Duration requestTimeout) {
    this(connectTimeout, requestTimeout, Clock.systemUTC());
  }

  /**
   * @param connectTimeout how long to wait for a connection (TCP and TLS)
   * @param requestTimeout how long to wait for the answer once the request is sent
   * @param clock reads the time a Retry-After date is measured from
   */
  public CommitStatusSender(Duration connectTimeout, Duration requestTimeout, Clock clock) {
    this.connectTimeout = positive(connectTimeout, "connect timeout");
    this.requestTimeout = positive(requestTimeout, "request timeout");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.http = HttpClient.newBuilder()
        // HTTP/2's cleartext upgrade sends extra headers to plain-http servers, for nothing a status needs.
        .version(HttpClient.Version.HTTP_1_1)
        .connectTimeout(connectTimeout)
        .followRedirects(HttpClient.Redirect.NEVER)
        .executor(executor())
        .build();
  }

  /** Sends {@code request} and says what came of it; never throws for anything the network or the server does. */
  public SendResult send(ForgeRequest request) {
    return exchange(request, ANSWER_LIMIT).result();
  }

  /**
   * Sends {@code request} and keeps up to {@code cap} bytes of the answer, for the requests that read what the forge
   * says (pull requests, comments). Like {@link #send}, it never throws for anything the network or the server does.
   */
  ForgeAnswer exchange(ForgeRequest request, int cap) {
    HttpRequest.Builder builder = HttpRequest.newBuilder(request.uri())
        .timeout(requestTimeout)
        .method(request.method(), request.method().equals("GET") ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofByteArray(request.body()))
        .header("User-Agent", USER_AGENT);
    request.headers().forEach(builder::header);
    String server = server(request);
    CompletableFuture<HttpResponse<CappedBody.Received>> exchange =
        http.sendAsync(builder.build(), answer -> new CappedBody(cap));
    try {
      // The request timeout covers the wait for the headers only; this covers a body that trickles or stalls.
      HttpResponse<CappedBody.Received> response =
          exchange.get(connectTimeout.plus(requestTimeout).toNanos(), TimeUnit.NANOSECONDS);
      SendResult result = classify(response.statusCode(), response.headers(), response.body().bytes(),
          request.credentials(), clock.instant());
      return new ForgeAnswer(result, response.headers(), response.body().bytes(), response.body().cut());
    } catch (TimeoutException e) {
      exchange.cancel(true);
      return ForgeAnswer.none(SendResult.retry(0, server + " did not finish answering within "
          + seconds(connectTimeout.plus(requestTimeout)), Optional.empty()));
    } catch (ExecutionException e) {
      return ForgeAnswer.none(SendResult.retry(0, cause(server, e.getCause()), Optional.empty()));
    } catch (InterruptedException e) {
      exchange.cancel(true);
      Thread.currentThread().interrupt();
      return ForgeAnswer.none(SendResult.retry(0, "sending to " + server + " was interrupted", Optional.empty()));
    }
  }

  /** What an answer means: taken, refused for good, or refused for now. */
  static SendResult classify(int status, HttpHeaders headers, byte[] answer, Collection<String> credentials,
      Instant now) {
    if (status >= 200 && status < 300) {
      return SendResult.sent(status, "");
    }
    if (status == 400 && gitLabHasThatStateAlready(answer)) {
      return SendResult.sent(status, "GitLab shows that state already: " + Excerpt.of(answer, credentials));
    }
    if (status == 429 || (status == 403 && RetryAfter.rateLimited(headers))) {
      return SendResult.retry(status, "rate limited: " + Excerpt.of(answer, credentials),
          RetryAfter.of(headers, now));
    }
    if (status == 408 || status == 425 || status >= 500) {
      return SendResult.retry(status, Excerpt.of(answer, credentials), RetryAfter.of(headers, now));
    }
    if (status >= 300 && status < 400) {
      String location = headers.firstValue("Location").map(Excerpt::clean).orElse("nowhere");
      return SendResult.rejected(status, "redirected to " + location
          + ", which is not followed: point the API URL there if it is the forge's API");
    }
    return SendResult.rejected(status, Excerpt.of(answer, credentials));
  }

  /**
   * GitLab answers 400 "Cannot transition status via :enqueue from :pending" to a pending (or running) status for a
   * context that is pending or running already: the commit shows the state asked for, so nothing is wrong.
   */
  private static boolean gitLabHasThatStateAlready(byte[] answer) {
    return new String(answer, StandardCharsets.UTF_8).contains("Cannot transition status via");
  }

  private String cause(String server, Throwable error) {
    Throwable e = error;
    while ((e instanceof CompletionException || e instanceof ExecutionException) && e.getCause() != null) {
      e = e.getCause();
    }
    if (e instanceof HttpConnectTimeoutException) {
      return "could not connect to " + server + " within " + seconds(connectTimeout);
    }
    if (e instanceof HttpTimeoutException) {
      return server + " did not answer within " + seconds(requestTimeout);
    }
    if (e instanceof ConnectException && e.getCause() instanceof UnresolvedAddressException) {
      return "cannot resolve " + server;
    }
    if (e instanceof ConnectException) {
      return "could not connect to " + server + message(e);
    }
    if (e instanceof SSLException) {
      return "TLS with " + server + " failed" + message(e);
    }
    if (e instanceof IOException) {
      return "talking to " + server + " failed" + message(e);
    }
    return "sending to " + server + " failed with " + e.getClass().getName() + message(e);
  }

  private static String message(Throwable e) {
    return e.getMessage() == null ? "" : ": " + Excerpt.clean(e.getMessage());
  }

  private static String server(ForgeRequest request) {
    int port = request.uri().getPort();
    return request.uri().getHost() + (port < 0 ? "" : ":" + port);
  }

  private static String seconds(Duration duration) {
    return duration.toMillis() % 1000 == 0 ? duration.toSeconds() + "s" : duration.toMillis() + "ms";
  }

  private static Duration positive(Duration duration, String what) {
    if (duration == null || duration.isNegative() || duration.isZero()) {
      throw new IllegalArgumentException("the commit-status " + what + " must be positive, not " + duration);
    }
    return duration;
  }

  // Named daemon threads: the client's work shows as such in a thread dump and never keeps the JVM up.
  private static ExecutorService executor() {
    return Executors.newCachedThreadPool(task -> {
      Thread thread = new Thread(task, "gitfn-commit-status-" + THREADS.incrementAndGet());
      thread.setDaemon(true);
      return thread;
    });
  }
}
