package io.gitfn.rollback;

import io.gitfn.api.Annotations;
import io.gitfn.api.function.Function;
import java.util.Map;

/**
 * The {@link Annotations#PINNED_REVISION} annotation, as read by the CLI; {@link io.gitfn.request.ControllerRequests}
 * writes it, as the dashboard does.
 */
public final class Pins {

  private Pins() {}

  /** The revision {@code fn} is pinned to by its annotation, or null. */
  public static String annotated(Function fn) {
    Map<String, String> annotations = fn.getMetadata().getAnnotations();
    return annotations == null ? null : annotations.get(Annotations.PINNED_REVISION);
  }
}
