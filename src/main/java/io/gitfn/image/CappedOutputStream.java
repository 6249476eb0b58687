package io.gitfn.image;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.function.Supplier;

/** Passes bytes on until the cap; the write that would pass it fails with the caller's exception, and sends none. */
public final class CappedOutputStream extends FilterOutputStream {

  private final long max;
  private final Supplier<? extends IOException> tooLarge;
  private long count;

  public CappedOutputStream(OutputStream out, long max, Supplier<? extends IOException> tooLarge) {
    super(out);
    this.max = max;
    this.tooLarge = tooLarge;
  }

  @Override
  public void write(int b) throws IOException {
    write(new byte[] {(byte) b}, 0, 1);
  }

  @Override
  public void write(byte[] b, int off, int len) throws IOException {
    if (count + len > max) {
      throw tooLarge.get();
    }
    out.write(b, off, len);
    count += len;
  }
}
