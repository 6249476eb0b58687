package io.gitfn.trigger.webhook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import org.junit.jupiter.api.Test;

class BoundedBodyTest {

  @Test
  void aBodyUpToTheLimitIsRead() throws Exception {
    assertThat(BoundedBody.read(new ByteArrayInputStream(new byte[1024]), 1024, 1024, later())).get()
        .satisfies(b -> assertThat(b).hasSize(1024));
    assertThat(BoundedBody.read(new ByteArrayInputStream(new byte[10]), -1, 1024, later())).get()
        .satisfies(b -> assertThat(b).hasSize(10));
  }

  @Test
  void aDeclaredLengthOverTheLimitIsRefusedUnread() throws Exception {
    CountingStream in = new CountingStream(10_000_000);
    assertThat(BoundedBody.read(in, 10_000_000, 1024, later())).isEmpty();
    assertThat(in.read).isZero();
  }

  @Test
  void anUndeclaredBodyIsReadOnlyOneBytePastTheLimit() throws Exception {
    CountingStream in = new CountingStream(10_000_000);
    assertThat(BoundedBody.read(in, -1, 1024, later())).isEmpty();
    assertThat(in.read).isEqualTo(1025);
  }

  @Test
  void aSenderThatTricklesItsBodyIsCutOffAtTheDeadline() {
    InputStream trickle = new InputStream() {
      @Override
      public int read() throws java.io.IOException {
        try {
          Thread.sleep(20); // one byte at a time, as a slow sender gets past an idle timeout
        } catch (InterruptedException e) {
          throw new java.io.InterruptedIOException();
        }
        return 'x';
      }

      @Override
      public int read(byte[] b, int off, int len) throws java.io.IOException {
        b[off] = (byte) read();
        return 1;
      }
    };
    long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(200);

    assertThatThrownBy(() -> BoundedBody.read(trickle, 1000, 1024, deadline))
        .isInstanceOf(BoundedBody.SlowSenderException.class);
  }

  private static long later() {
    return System.nanoTime() + java.util.concurrent.TimeUnit.MINUTES.toNanos(1);
  }

  /** An endless-looking body that counts what was taken from it. */
  private static final class CountingStream extends InputStream {
    private final long size;
    long read;

    CountingStream(long size) {
      this.size = size;
    }

    @Override
    public int read() {
      if (read >= size) {
        return -1;
      }
      read++;
      return 'x';
    }
  }
}
