package io.gitfn.build;

import io.gitfn.api.function.FunctionRuntime;
import io.gitfn.workload.DesiredDeployment;
import io.gitfn.workload.ImageLayout;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How a Function's image runs: its entrypoint, user, working directory and environment, as the image config holds
 * them.
 *
 * @param env in the order the image sets it: Kyma's runtime defaults that do not depend on the Function (§5.4),
 *     so the image runs alone, then where the runtime finds the Function
 */
public record RuntimeImageConfig(List<String> entrypoint, String user, String workingDir, Map<String, String> env) {

  /** The user the Function runs as; the Deployment runs its Pods as this user too. */
  public static final String USER = "1000";

  public RuntimeImageConfig {
    entrypoint = List.copyOf(entrypoint);
    env = Collections.unmodifiableMap(new LinkedHashMap<>(env));
  }

  public static RuntimeImageConfig of(FunctionRuntime runtime) {
    Map<String, String> env = new LinkedHashMap<>();
    env.put("FUNC_RUNTIME", runtime.value());
    env.put("FUNC_HANDLER", "main");
    env.put("MOD_NAME", "handler");
    env.put("FUNC_PORT", Integer.toString(DesiredDeployment.PORT));
    if (runtime.isNodejs()) {
      env.put("HANDLER_PATH", ImageLayout.nodeHandlerPath());
      return new RuntimeImageConfig(List.of("node", ImageLayout.RUNTIME_DIR + "/server.mjs"), USER,
          ImageLayout.FUNCTION_DIR, env);
    }
    env.put("FUNCTION_PATH", ImageLayout.FUNCTION_DIR);
    env.put("PYTHONPATH", ImageLayout.pythonPath());
    env.put("PYTHONUNBUFFERED", "TRUE");
    return new RuntimeImageConfig(List.of("python3", ImageLayout.RUNTIME_DIR + "/server.py"), USER,
        ImageLayout.FUNCTION_DIR, env);
  }
}
