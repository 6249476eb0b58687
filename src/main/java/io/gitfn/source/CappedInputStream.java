package io.gitfn.source;

import io.gitfn.source.SourceException.Kind;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * A Git server's answer, cut off once it has sent more than a cap: JGit reads a ref advertisement whole into memory
 * before gitfn can count its refs, so the bytes are counted as they arrive. The error JGit sees wraps a
 * {@link SourceException} of kind {@code TOO_LARGE}, which {@code FailureClassifier} unwraps.
 *
 * <p>A network call sets the cap for its thread ({@link #limit}); the transports read it when they open a
 * connection ({@link BoundedHttpConnections}) or a session ({@link BoundedSshSessions}).
 */
final class CappedInputStream extends FilterInputStream {

  private static final ThreadLocal<Long> CAP = new ThreadLocal<>();

  private final long cap;
  private final String host;
  private final String what;
  private long read;

  /** Runs {@code call} on this thread with at most {@code bytes} readable from each answer of a Git server. */
  static <T> T limit(long bytes, NetworkCalls.Call<T> call) throws Exception {
    CAP.set(bytes);
    try {
      return call.call();
    } finally {
      CAP.remove();
    }
  }

  /** The cap {@link #limit} set on this thread, or null when it set none. */
  static Long cap() {
    return CAP.get();
  }

  /** @param what what the answer answers, for the message: a URL's path, or an SSH command */
  CappedInputStream(InputStream in, long cap, String host, String what) {
    super(in);
    this.cap = cap;
    this.host = host;
    this.what = what;
  }

  @Override
  public int read() throws IOException {
    int b = super.read();
    count(b < 0 ? 0 : 1);
    return b;
  }

  @Override
  public int read(byte[] buffer, int offset, int length) throws IOException {
    int n = super.read(buffer, offset, length);
    count(Math.max(n, 0));
    return n;
  }

  private void count(int n) throws IOException {
    read += n;
    if (read > cap) {
      throw new IOException(new SourceException(Kind.TOO_LARGE, host + " sent more than " + cap
          + " bytes in one answer to " + what + "; gitfn reads at most that much"));
    }
  }
}
