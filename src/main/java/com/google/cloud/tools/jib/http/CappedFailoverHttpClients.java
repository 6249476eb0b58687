package com.google.cloud.tools.jib.http;

import com.google.api.client.http.HttpTransport;
import com.google.api.client.http.apache.v2.ApacheHttpTransport;
import com.google.api.client.util.SslUtils;
import com.google.cloud.tools.jib.api.LogEvent;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.security.GeneralSecurityException;
import java.util.function.Consumer;
import org.apache.http.HttpEntity;
import org.apache.http.HttpResponseInterceptor;
import org.apache.http.conn.EofSensorInputStream;
import org.apache.http.conn.ssl.NoopHostnameVerifier;
import org.apache.http.conn.ssl.SSLConnectionSocketFactory;
import org.apache.http.entity.HttpEntityWrapper;
import org.apache.http.impl.client.HttpClientBuilder;

/**
 * gitfn's: jib-core's {@link FailoverHttpClient} on transports whose every answer body is capped, so that a registry
 * (or the token endpoint a registry names) cannot make the reader hold more than the cap. jib reads manifests,
 * tokens and error bodies whole into memory; the controller asks registries that tenants choose
 * ({@code runtimeImageOverride}), so each of those reads must be bounded. The transports are jib's own (Apache
 * HttpClient with the system's TLS, or trusting every certificate for an insecure registry) plus the cap.
 *
 * <p>It lives in jib's package because the constructor that takes transports is package-private there.
 */
public final class CappedFailoverHttpClients {

  private CappedFailoverHttpClients() {
  }

  /**
   * A client like {@code new FailoverHttpClient(insecure, false, logger)} whose answer bodies end in an
   * {@link IOException} past {@code maxResponseBytes}. jib still retries a request whose sending failed; an answer
   * over the cap fails as its body is read, after the request, so it is not asked again.
   */
  public static FailoverHttpClient create(boolean insecure, Consumer<LogEvent> logger, long maxResponseBytes) {
    return new FailoverHttpClient(insecure, false, logger, () -> transport(false, maxResponseBytes),
        () -> transport(true, maxResponseBytes), true);
  }

  private static HttpTransport transport(boolean trustAll, long maxResponseBytes) {
    HttpClientBuilder builder = ApacheHttpTransport.newDefaultHttpClientBuilder();
    if (trustAll) {
      try {
        builder.setSSLSocketFactory(null).setSSLContext(SslUtils.trustAllSSLContext())
            .setSSLHostnameVerifier(NoopHostnameVerifier.INSTANCE);
      } catch (GeneralSecurityException e) {
        throw new IllegalStateException("the platform does not support TLS", e);
      }
    } else {
      builder.setSSLSocketFactory(SSLConnectionSocketFactory.getSystemSocketFactory());
    }
    builder.addInterceptorLast((HttpResponseInterceptor) (response, context) -> {
      if (response.getEntity() != null) {
        response.setEntity(new CappedEntity(response.getEntity(), maxResponseBytes));
      }
    });
    return new ApacheHttpTransport(builder.build());
  }

  /** An answer body that is refused when it says it is larger than the cap, and stops being read when it is. */
  private static final class CappedEntity extends HttpEntityWrapper {
    private final long max;

    CappedEntity(HttpEntity entity, long max) {
      super(entity);
      this.max = max;
    }

    @Override
    public InputStream getContent() throws IOException {
      InputStream raw = super.getContent();
      if (getContentLength() > max) {
        abort(raw);
        throw tooLarge(max);
      }
      return new CappedStream(raw, max);
    }

    @Override
    public void writeTo(OutputStream out) throws IOException {
      try (InputStream in = getContent()) {
        in.transferTo(out);
      }
    }
  }

  private static final class CappedStream extends FilterInputStream {
    private final long max;
    private long read;

    CappedStream(InputStream in, long max) {
      super(in);
      this.max = max;
    }

    @Override
    public int read() throws IOException {
      int b = super.read();
      if (b >= 0) {
        count(1);
      }
      return b;
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
      int n = super.read(buffer, offset, length);
      if (n > 0) {
        count(n);
      }
      return n;
    }

    private void count(long n) throws IOException {
      read += n;
      if (read > max) {
        abort(in);
        throw tooLarge(max);
      }
    }

    @Override
    public void close() throws IOException {
      if (read > max) {
        return; // aborted: closing would read the rest to keep the connection
      }
      super.close();
    }
  }

  /**
   * Drops the connection under {@code raw}. Closing an answer's stream makes Apache HttpClient read it to its end,
   * to reuse the connection: for an endless answer, forever.
   */
  private static void abort(InputStream raw) throws IOException {
    if (raw instanceof EofSensorInputStream sensor) {
      sensor.abortConnection();
    } else {
      raw.close();
    }
  }

  private static IOException tooLarge(long max) {
    return new IOException("the registry's answer is larger than gitfn's cap of " + max + " bytes");
  }
}
