package io.gitfn.reconcile.function;

import static io.gitfn.api.function.ConditionReason.INVALID_FUNCTION_SPEC;
import static io.gitfn.api.function.ConditionReason.NO_BUILD_NEEDED;
import static io.gitfn.api.function.ConditionType.BUILD_READY;
import static io.gitfn.api.function.ConditionType.CONFIGURATION_READY;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.gitfn.api.FieldManagers;
import io.gitfn.api.Labels;
import io.gitfn.api.function.Function;
import io.gitfn.api.function.FunctionHistoryEntry;
import io.gitfn.build.BuildContextTooLargeException;
import io.gitfn.build.BuildSettings;
import io.gitfn.build.BuildlessSource;
import io.gitfn.build.ContentKey;
import io.gitfn.build.FunctionBuildPlan;
import io.gitfn.reconcile.function.Rollout.Release;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The source ConfigMaps of buildless Functions: one per content key, made when a key is first released, kept while
 * the Function's history names the key (so a revert or a pin re-points the Deployment at it), deleted after.
 */
final class BuildlessSources {

  private final KubernetesClient client;
  private final BuildSettings settings;

  BuildlessSources(KubernetesClient client, BuildSettings settings) {
    this.client = client;
    this.settings = settings;
  }

  /**
   * Makes sure the plan's source ConfigMap exists and returns the release that runs it. BuildReady is True with
   * {@code NoBuildNeeded}: nothing is built, so nothing can wait for or fail a build. A source past the ConfigMap
   * limit (its lock file counts) sets ConfigurationReady False, and the running version stays.
   */
  Optional<Release> ensure(Function fn, FunctionBuildPlan plan, FunctionState pass) {
    BuildlessSource source;
    try {
      source = BuildlessSource.of(fn, plan, settings);
    } catch (BuildContextTooLargeException e) {
      pass.condition(CONFIGURATION_READY, "False", INVALID_FUNCTION_SPEC, e.getMessage());
      return Optional.empty();
    }
    String name = source.name(fn);
    String image = ContentKey.baseImage(fn, settings);
    // One left by a deleted Function of the same name and content is taken over: its owner reference is replaced
    // (only the data of an immutable ConfigMap is frozen), else the garbage collector would delete it under the Pods.
    if (find(fn, name).filter(found -> ownedBy(fn, found)).isEmpty()) {
      client.resource(source.configMap(fn)).fieldManager(FieldManagers.FUNCTION_CONTROLLER).forceConflicts()
          .serverSideApply();
    }
    pass.condition(BUILD_READY, "True", NO_BUILD_NEEDED, "buildless: no image is built; Pods run " + image
        + " with the source of ConfigMap " + name + " and install its dependencies as they start");
    if (!pass.knownGood(source.key(), image)) {
      pass.record(source.key(), image, FunctionState.SUCCEEDED);
    }
    return Optional.of(new Release(source.key(), image, name));
  }

  /** The release of a pinned history entry: buildless when that key's source ConfigMap is still there. */
  Release pinned(Function fn, FunctionHistoryEntry entry) {
    ContentKey key = new ContentKey(entry.getContentKey());
    String name = BuildlessSource.name(fn, key);
    return find(fn, name).isPresent() ? new Release(key, entry.getImage(), name) : new Release(key, entry.getImage());
  }

  /**
   * Deletes the Function's source ConfigMaps whose key neither the history nor the current release names: the
   * history is as long as a revert can reach back. The Function's deletion collects the rest (owner reference).
   */
  void collect(Function fn, List<FunctionHistoryEntry> history, ContentKey current) {
    Set<String> kept = new HashSet<>();
    kept.add(current.tag());
    for (FunctionHistoryEntry entry : history) {
      if (entry.getContentKey() != null && entry.getContentKey().length() == 64) {
        kept.add(new ContentKey(entry.getContentKey()).tag());
      }
    }
    List<ConfigMap> sources = client.configMaps().inNamespace(fn.getMetadata().getNamespace())
        .withLabels(Map.of(Labels.FUNCTION_NAME, fn.getMetadata().getName(),
            Labels.RESOURCE, BuildlessSource.RESOURCE))
        .list().getItems();
    for (ConfigMap source : sources) {
      String key = source.getMetadata().getLabels().get(Labels.CONTENT_KEY);
      if (!kept.contains(key)) {
        client.resource(source).delete();
      }
    }
  }

  private static boolean ownedBy(Function fn, ConfigMap map) {
    return map.getMetadata().getOwnerReferences() != null && map.getMetadata().getOwnerReferences().stream()
        .anyMatch(o -> Objects.equals(o.getUid(), fn.getMetadata().getUid()));
  }

  private Optional<ConfigMap> find(Function fn, String name) {
    return Optional.ofNullable(client.configMaps().inNamespace(fn.getMetadata().getNamespace()).withName(name).get());
  }
}
