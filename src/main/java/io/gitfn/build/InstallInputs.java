package io.gitfn.build;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gitfn.api.function.FunctionRuntime;

/**
 * The dependency files as an install Job reads them, and as the dependency layer's key hashes them: for Node.js,
 * without the root package's {@code name} and {@code version}. Kyma's Functions name their package after the Function
 * ({@code "name": "orders"}), and npm writes that name into the installed folder ({@code node_modules/.package-lock.json}),
 * so with them two Functions with the same dependencies would each install and push their own dependency image.
 * Without them, they share one: one install Job per namespace and set of dependencies, as
 * docs/functions.md#layered-images says. Nothing npm installs depends on the root's name or version. The Function's
 * own files, in its source layer, keep both.
 *
 * <p>A file with neither, or that is not a JSON object (npm fails on it and says why), is left byte for byte, so its
 * key is what it was before this class. A file with either is written again without them, in its own field order.
 * The files are bounded before they get here (the ConfigMap limit of a build context).
 */
public final class InstallInputs {

  private static final ObjectMapper JSON = new ObjectMapper();

  private InstallInputs() {}

  /** {@code package.json} (already {@link RuntimeFiles#normalisedDependencies}) as the install reads it. */
  public static String dependencies(FunctionRuntime runtime, String dependencies) {
    if (!runtime.isNodejs() || dependencies == null) {
      return dependencies;
    }
    return withoutRootIdentity(dependencies, false);
  }

  /** {@code package-lock.json}, whose root is named twice: at its top and as the package {@code ""}. */
  public static String lockFile(FunctionRuntime runtime, String lockFile) {
    if (!runtime.isNodejs() || lockFile == null) {
      return lockFile;
    }
    return withoutRootIdentity(lockFile, true);
  }

  private static String withoutRootIdentity(String text, boolean lock) {
    JsonNode tree;
    try {
      tree = JSON.readTree(text);
    } catch (JacksonException e) {
      return text;
    }
    if (!(tree instanceof ObjectNode root)) {
      return text;
    }
    boolean changed = strip(root);
    if (lock && root.get("packages") instanceof ObjectNode packages
        && packages.get("") instanceof ObjectNode self) {
      changed |= strip(self);
    }
    if (!changed) {
      return text;
    }
    try {
      return JSON.writerWithDefaultPrettyPrinter().writeValueAsString(root) + "\n";
    } catch (JacksonException e) {
      return text;
    }
  }

  private static boolean strip(ObjectNode node) {
    boolean had = node.has("name") || node.has("version");
    node.remove("name");
    node.remove("version");
    return had;
  }
}
