package io.gitfn.api;

import java.util.Optional;

/**
 * The label keys gitfn reads and writes: Kyma's, on a Function's children (reference §2.5), so that tools which list
 * them by label keep working, and gitfn's own.
 */
public final class Labels {

  public static final String FUNCTION_NAME = "serverless.kyma-project.io/function-name";
  public static final String MANAGED_BY = "serverless.kyma-project.io/managed-by";
  public static final String UUID = "serverless.kyma-project.io/uuid";
  public static final String RESOURCE = "serverless.kyma-project.io/resource";
  public static final String APP_NAME = "app.kubernetes.io/name";

  /** Kyma's {@link #MANAGED_BY} value. */
  public static final String MANAGER = "function-controller";
  /** Selects every child of every Function, as the controller's informers do. */
  public static final String MANAGED = MANAGED_BY + "=" + MANAGER;

  /** On a buildless Function's source ConfigMap: the content key it holds the source of. */
  public static final String CONTENT_KEY = "gitfn.io/content-key";

  /** On a synced Function, {@code <namespace>.<name>} of its FunctionRepository; prune touches nothing else. */
  public static final String REPOSITORY = "gitfn.io/repository";

  /**
   * The conventional shard key (docs/operations.md#sharding). A FunctionRepository's value of it goes to its Functions
   * whatever an instance selects on, so that splitting one instance into shards finds them labelled already.
   */
  public static final String SHARD = "gitfn.io/shard";

  /** On the leader's Pod: the Lease it holds, so that the webhook Service selects the instance that acts. */
  public static final String LEADER = "gitfn.io/leader";

  /**
   * On a preview's namespace and on the FunctionRepository gitfn makes for it: the {@link #REPOSITORY} value of the
   * repository whose pull request it previews. Only a repository of that namespace may apply into the namespace.
   */
  public static final String PREVIEW_OF = "gitfn.io/preview-of";

  /** Beside {@link #PREVIEW_OF}: the pull request's number. */
  public static final String PULL_REQUEST = "gitfn.io/pull-request";

  /** A FunctionRepository as a {@link #REPOSITORY} value names it. */
  public record Repository(String namespace, String name) {}

  /** The {@link #REPOSITORY} value of the FunctionRepository {@code namespace/name}. */
  public static String repository(String namespace, String name) {
    return namespace + "." + name;
  }

  /**
   * The FunctionRepository a {@link #REPOSITORY} value names, or empty when it names none. A namespace is a DNS
   * label, without dots, so the first dot ends it.
   */
  public static Optional<Repository> repositoryOf(String value) {
    int dot = value == null ? -1 : value.indexOf('.');
    return dot > 0 && dot < value.length() - 1
        ? Optional.of(new Repository(value.substring(0, dot), value.substring(dot + 1))) : Optional.empty();
  }

  private Labels() {}
}
