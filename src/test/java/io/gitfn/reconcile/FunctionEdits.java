package io.gitfn.reconcile;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.gitfn.api.function.Function;
import io.gitfn.testbed.TestNamespace;
import java.net.HttpURLConnection;
import java.util.function.UnaryOperator;

/**
 * A test's edit of a Function the controller is working on: read, change, write, and again when the controller's
 * own write came in between (409 Conflict), as kubectl edit would have the user do.
 */
public final class FunctionEdits {

  private FunctionEdits() {
  }

  public static Function edit(KubernetesClient client, TestNamespace ns, String name, UnaryOperator<Function> change) {
    for (int attempt = 1; ; attempt++) {
      try {
        return client.resources(Function.class).inNamespace(ns.name()).withName(name).edit(change);
      } catch (KubernetesClientException e) {
        if (e.getCode() != HttpURLConnection.HTTP_CONFLICT || attempt == 5) {
          throw e;
        }
      }
    }
  }
}
