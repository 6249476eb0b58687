package io.gitfn.workload;

import io.fabric8.kubernetes.api.model.EnvVar;
import io.gitfn.api.function.Function;
import io.gitfn.api.function.FunctionRuntime;
import java.util.ArrayList;
import java.util.List;

/**
 * The runtime container's environment, in Kyma's order (§5.4): the user's {@code spec.env}, then the runtime's,
 * then the platform's. For a name set twice Kubernetes uses the last, so the platform's values win.
 *
 * <p>Kyma's names, with the paths of gitfn's images ({@link ImageLayout}) where Kyma's images have
 * {@code /kubeless} or {@code /usr/src/app/function}. The image sets the same paths as defaults; setting them here
 * too keeps the Deployment saying what runs, as Kyma's does.
 */
public final class FunctionEnv {

  private FunctionEnv() {
  }

  public static List<EnvVar> forFunction(Function fn, WorkloadSettings settings) {
    List<EnvVar> env = new ArrayList<>();
    if (fn.getSpec().getEnv() != null) {
      env.addAll(fn.getSpec().getEnv());
    }
    FunctionRuntime runtime = fn.getSpec().getRuntime();
    env.add(plain("FUNC_RUNTIME", runtime.value()));
    if (runtime == FunctionRuntime.PYTHON312) {
      env.add(plain("PYTHONPATH", ImageLayout.pythonPath()));
      env.add(plain("FUNCTION_PATH", ImageLayout.FUNCTION_DIR));
      env.add(plain("PYTHONUNBUFFERED", "TRUE"));
    } else {
      env.add(plain("HANDLER_PATH", ImageLayout.nodeHandlerPath()));
    }
    env.add(plain("FUNC_NAME", fn.getMetadata().getName()));
    env.add(plain("SERVICE_NAMESPACE", fn.getMetadata().getNamespace()));
    if (settings.traceCollectorEndpoint() != null && !settings.traceCollectorEndpoint().isEmpty()) {
      env.add(plain("TRACE_COLLECTOR_ENDPOINT", settings.traceCollectorEndpoint()));
    }
    env.add(plain("PUBLISHER_PROXY_ADDRESS", settings.publisherProxyAddress()));
    env.add(plain("FUNC_HANDLER", "main"));
    env.add(plain("MOD_NAME", "handler"));
    env.add(plain("FUNC_PORT", Integer.toString(DesiredDeployment.PORT)));
    return env;
  }

  private static EnvVar plain(String name, String value) {
    return new EnvVar(name, value, null);
  }
}
