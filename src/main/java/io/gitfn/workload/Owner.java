package io.gitfn.workload;

import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.gitfn.api.function.Function;

/** The controller reference every child carries, so that deleting a Function deletes its children (§2.5). */
public final class Owner {

  private Owner() {
  }

  public static OwnerReference of(Function fn) {
    return new OwnerReferenceBuilder()
        .withApiVersion(Function.GROUP + "/" + Function.VERSION)
        .withKind("Function")
        .withName(fn.getMetadata().getName())
        .withUid(fn.getMetadata().getUid())
        .withController(true)
        .withBlockOwnerDeletion(true)
        .build();
  }
}
