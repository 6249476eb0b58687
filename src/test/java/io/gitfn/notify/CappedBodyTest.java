package io.gitfn.notify;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.Flow;
import org.junit.jupiter.api.Test;

/** The body subscriber keeps at most its cap, and says when the server had more. */
class CappedBodyTest {

  private static final int CAP = 64 * 1024;

  /** A subscription that counts what the subscriber asks of it. */
  private static final class Counting implements Flow.Subscription {
    long requested;
    boolean cancelled;

    @Override
    public void request(long n) {
      requested += n;
    }

    @Override
    public void cancel() {
      cancelled = true;
    }
  }

  private static List<ByteBuffer> chunk(int size) {
    return List.of(ByteBuffer.wrap(new byte[size]));
  }

  @Test
  void anEndlessBodyIsKeptUpToTheCapAndThenRefused() {
    CappedBody body = new CappedBody(CAP);
    Counting subscription = new Counting();
    body.onSubscribe(subscription);

    int delivered = 0;
    // A server without end: deliver whatever is asked for, until the subscriber stops asking.
    while (!subscription.cancelled && delivered < 100 * CAP) {
      assertThat(subscription.requested).isPositive();
      subscription.requested--;
      body.onNext(chunk(10_000));
      delivered++;
    }

    CappedBody.Received received = body.getBody().toCompletableFuture().join();
    assertThat(subscription.cancelled).isTrue();
    assertThat(delivered).isEqualTo(CAP / 10_000 + 1);
    assertThat(received.bytes()).hasSize(CAP);
    assertThat(received.cut()).isTrue();
  }

  @Test
  void aBodyOfExactlyTheCapIsKeptWholeAndNotCut() {
    CappedBody body = new CappedBody(CAP);
    Counting subscription = new Counting();
    body.onSubscribe(subscription);

    body.onNext(chunk(CAP));
    body.onComplete();

    CappedBody.Received received = body.getBody().toCompletableFuture().join();
    assertThat(received.bytes()).hasSize(CAP);
    assertThat(received.cut()).isFalse();
    assertThat(subscription.cancelled).isFalse();
  }

  @Test
  void whatArrivesAfterTheCutIsIgnored() {
    CappedBody body = new CappedBody(10);
    body.onSubscribe(new Counting());

    body.onNext(chunk(11));
    body.onNext(chunk(1000));
    body.onComplete();

    assertThat(body.getBody().toCompletableFuture().join().bytes()).hasSize(10);
  }
}
