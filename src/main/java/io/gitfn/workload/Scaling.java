package io.gitfn.workload;

import io.gitfn.api.function.Function;
import io.gitfn.api.function.ScaleConfig;

/** Whether an HPA scales a Function: only when scaleConfig leaves it room, min ≠ max (§1.2). */
public final class Scaling {

  private Scaling() {
  }

  public static boolean hasAutoscaler(Function fn) {
    ScaleConfig scale = fn.getSpec().getScaleConfig();
    return scale != null && scale.getMinReplicas() != null && scale.getMaxReplicas() != null
        && !scale.getMinReplicas().equals(scale.getMaxReplicas());
  }
}
