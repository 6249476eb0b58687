package io.gitfn.source;

import io.gitfn.source.SourceException.Kind;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Proxy;
import java.net.URL;
import org.eclipse.jgit.transport.HttpTransport;
import org.eclipse.jgit.transport.http.HttpConnection;
import org.eclipse.jgit.transport.http.JDKHttpConnection;
import org.eclipse.jgit.transport.http.JDKHttpConnectionFactory;

/**
 * JGit's HTTP connections, with a cap on what a response may send while a network call has one
 * ({@link #limit}): a Git server that advertises refs without end is cut off at the cap, before JGit has parsed the
 * advertisement into memory. Installed once as JGit's connection factory; without a cap it changes nothing.
 */
final class BoundedHttpConnections extends JDKHttpConnectionFactory {

  private static final ThreadLocal<Long> CAP = new ThreadLocal<>();

  static {
    HttpTransport.setConnectionFactory(new BoundedHttpConnections());
  }

  private BoundedHttpConnections() {}

  /** Makes sure JGit connects through this factory. */
  static void install() {
    // The static initializer did it; calling this loads the class.
  }

  /** Runs {@code call} on this thread with at most {@code bytes} readable from each HTTP response. */
  static <T> T limit(long bytes, NetworkCalls.Call<T> call) throws Exception {
    CAP.set(bytes);
    try {
      return call.call();
    } finally {
      CAP.remove();
    }
  }

  @Override
  public HttpConnection create(URL url) throws IOException {
    return new Capped(url);
  }

  @Override
  public HttpConnection create(URL url, Proxy proxy) throws IOException {
    return new Capped(url, proxy);
  }

  private static final class Capped extends JDKHttpConnection {
    private final Long cap = CAP.get();

    Capped(URL url) throws IOException {
      super(url);
    }

    Capped(URL url, Proxy proxy) throws IOException {
      super(url, proxy);
    }

    @Override
    public InputStream getInputStream() throws IOException {
      InputStream in = super.getInputStream();
      return cap == null ? in : new CappedStream(in, cap, getURL());
    }
  }

  private static final class CappedStream extends FilterInputStream {
    private final long cap;
    private final URL url;
    private long read;

    CappedStream(InputStream in, long cap, URL url) {
      super(in);
      this.cap = cap;
      this.url = url;
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
        throw new IOException(new SourceException(Kind.TOO_LARGE, url.getHost() + " sent more than " + cap
            + " bytes in one answer to " + url.getPath() + "; gitfn reads at most that much"));
      }
    }
  }
}
