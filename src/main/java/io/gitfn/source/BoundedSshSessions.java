package io.gitfn.source;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.eclipse.jgit.errors.TransportException;
import org.eclipse.jgit.transport.CredentialsProvider;
import org.eclipse.jgit.transport.RemoteSession;
import org.eclipse.jgit.transport.RemoteSession2;
import org.eclipse.jgit.transport.SshSessionFactory;
import org.eclipse.jgit.transport.URIish;
import org.eclipse.jgit.util.FS;

/**
 * JGit's SSH sessions, with the cap {@link CappedInputStream#limit} sets on the calling thread applied to
 * what each remote command sends: over SSH, as over HTTP, a server that advertises refs without end is cut off at
 * the cap before JGit has parsed the advertisement into memory. The cap is read when the session is opened, on the
 * thread of the network call; without one, sessions are the delegate's own.
 */
final class BoundedSshSessions extends SshSessionFactory {

  private final SshSessionFactory delegate;

  BoundedSshSessions(SshSessionFactory delegate) {
    this.delegate = delegate;
  }

  @Override
  public RemoteSession getSession(URIish uri, CredentialsProvider credentials, FS fs, int timeoutMillis)
      throws TransportException {
    RemoteSession session = delegate.getSession(uri, credentials, fs, timeoutMillis);
    Long cap = CappedInputStream.cap();
    return cap == null ? session : new CappedSession(session, cap, uri.getHost());
  }

  @Override
  public String getType() {
    return delegate.getType();
  }

  @Override
  public void releaseSession(RemoteSession session) {
    delegate.releaseSession(session instanceof CappedSession capped ? capped.session : session);
  }

  /** A session whose commands' output is capped. RemoteSession2 keeps JGit's protocol v2 over SSH. */
  private static final class CappedSession implements RemoteSession2 {
    private final RemoteSession session;
    private final long cap;
    private final String host;

    CappedSession(RemoteSession session, long cap, String host) {
      this.session = session;
      this.cap = cap;
      this.host = host;
    }

    @Override
    public Process exec(String command, int timeout) throws IOException {
      return new CappedProcess(session.exec(command, timeout), cap, host, command);
    }

    @Override
    public Process exec(String command, Map<String, String> environment, int timeout) throws IOException {
      Process process = session instanceof RemoteSession2 v2
          ? v2.exec(command, environment, timeout)
          : session.exec(command, timeout);
      return new CappedProcess(process, cap, host, command);
    }

    @Override
    public void disconnect() {
      session.disconnect();
    }
  }

  private static final class CappedProcess extends Process {
    private final Process process;
    private final InputStream output;

    CappedProcess(Process process, long cap, String host, String command) {
      this.process = process;
      this.output = new CappedInputStream(process.getInputStream(), cap, host, "`" + command + "`");
    }

    @Override
    public InputStream getInputStream() {
      return output;
    }

    @Override
    public OutputStream getOutputStream() {
      return process.getOutputStream();
    }

    @Override
    public InputStream getErrorStream() {
      return process.getErrorStream();
    }

    @Override
    public int waitFor() throws InterruptedException {
      return process.waitFor();
    }

    @Override
    public boolean waitFor(long timeout, TimeUnit unit) throws InterruptedException {
      return process.waitFor(timeout, unit);
    }

    @Override
    public int exitValue() {
      return process.exitValue();
    }

    @Override
    public boolean isAlive() {
      return process.isAlive();
    }

    @Override
    public void destroy() {
      process.destroy();
    }
  }
}
