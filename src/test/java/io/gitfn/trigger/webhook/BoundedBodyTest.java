package io.gitfn.trigger.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import org.junit.jupiter.api.Test;

class BoundedBodyTest {

  @Test
  void aBodyUpToTheLimitIsRead() throws Exception {
    assertThat(BoundedBody.read(new ByteArrayInputStream(new byte[1024]), 1024, 1024)).get()
        .satisfies(b -> assertThat(b).hasSize(1024));
    assertThat(BoundedBody.read(new ByteArrayInputStream(new byte[10]), -1, 1024)).get()
        .satisfies(b -> assertThat(b).hasSize(10));
  }

  @Test
  void aDeclaredLengthOverTheLimitIsRefusedUnread() throws Exception {
    CountingStream in = new CountingStream(10_000_000);
    assertThat(BoundedBody.read(in, 10_000_000, 1024)).isEmpty();
    assertThat(in.read).isZero();
  }

  @Test
  void anUndeclaredBodyIsReadOnlyOneBytePastTheLimit() throws Exception {
    CountingStream in = new CountingStream(10_000_000);
    assertThat(BoundedBody.read(in, -1, 1024)).isEmpty();
    assertThat(in.read).isEqualTo(1025);
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
