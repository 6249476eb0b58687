package io.gitfn.image;

import java.io.IOException;

/** A layer that would pass its cap in bytes or entries; nothing of it is pushed. */
public final class LayerTooLargeException extends IOException {

  public LayerTooLargeException(String message) {
    super(message);
  }
}
