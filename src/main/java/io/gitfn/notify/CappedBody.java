package io.gitfn.notify;

import java.io.ByteArrayOutputStream;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;

/**
 * An answer's body up to a cap. Past the cap it cancels the subscription, which closes the connection, so a server
 * that streams without end costs at most the cap (plus the one buffer in hand) and the exchange still finishes.
 *
 * <p>An InputStream body would bound memory as well, but a read from it has no deadline once the headers are in;
 * this subscriber lets the sender bound the whole exchange with one timeout. The HTTP client calls it serially,
 * as Flow requires, so it needs no lock.
 */
final class CappedBody implements HttpResponse.BodySubscriber<CappedBody.Received> {

  /**
   * What was kept of a body.
   *
   * @param bytes at most the cap
   * @param cut whether the server had more to say than was kept
   */
  record Received(byte[] bytes, boolean cut) {}

  private final int cap;
  private final ByteArrayOutputStream kept = new ByteArrayOutputStream();
  private final CompletableFuture<Received> result = new CompletableFuture<>();
  private Flow.Subscription subscription;

  CappedBody(int cap) {
    this.cap = cap;
  }

  @Override
  public void onSubscribe(Flow.Subscription subscription) {
    this.subscription = subscription;
    subscription.request(1);
  }

  @Override
  public void onNext(List<ByteBuffer> buffers) {
    if (result.isDone()) {
      return; // cancelled already; Flow allows a few signals after cancel
    }
    for (ByteBuffer buffer : buffers) {
      int take = Math.min(buffer.remaining(), cap - kept.size());
      byte[] chunk = new byte[take];
      buffer.get(chunk);
      kept.write(chunk, 0, take);
      if (buffer.hasRemaining()) {
        subscription.cancel();
        result.complete(new Received(kept.toByteArray(), true));
        return;
      }
    }
    subscription.request(1);
  }

  @Override
  public void onError(Throwable error) {
    result.completeExceptionally(error);
  }

  @Override
  public void onComplete() {
    result.complete(new Received(kept.toByteArray(), false));
  }

  @Override
  public CompletionStage<Received> getBody() {
    return result;
  }
}
