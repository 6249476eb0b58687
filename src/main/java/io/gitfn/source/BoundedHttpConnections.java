package io.gitfn.source;

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
 * ({@link CappedInputStream#limit}): a Git server that advertises refs without end is cut off at the cap, before
 * JGit has parsed the advertisement into memory. Installed once as JGit's connection factory; without a cap it
 * changes nothing.
 */
final class BoundedHttpConnections extends JDKHttpConnectionFactory {

  static {
    HttpTransport.setConnectionFactory(new BoundedHttpConnections());
  }

  private BoundedHttpConnections() {}

  /** Makes sure JGit connects through this factory. */
  static void install() {
    // The static initializer did it; calling this loads the class.
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
    private final Long cap = CappedInputStream.cap();

    Capped(URL url) throws IOException {
      super(url);
    }

    Capped(URL url, Proxy proxy) throws IOException {
      super(url, proxy);
    }

    @Override
    public InputStream getInputStream() throws IOException {
      InputStream in = super.getInputStream();
      return cap == null ? in : new CappedInputStream(in, cap, getURL().getHost(), getURL().getPath());
    }
  }
}
