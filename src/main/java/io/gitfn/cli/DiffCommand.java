package io.gitfn.cli;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceList;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.MixedOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.gitfn.api.Annotations;
import io.gitfn.api.FieldManagers;
import io.gitfn.api.Labels;
import io.gitfn.api.function.AuthType;
import io.gitfn.api.function.Function;
import io.gitfn.api.function.RepositoryAuth;
import io.gitfn.api.repository.AppliedConfigMap;
import io.gitfn.api.repository.AppliedObject;
import io.gitfn.api.repository.FunctionRepository;
import io.gitfn.manifest.InvalidManifestException;
import io.gitfn.manifest.Manifest;
import io.gitfn.manifest.ManifestError;
import io.gitfn.manifest.ManifestOptions;
import io.gitfn.manifest.ManifestReader;
import io.gitfn.manifest.ObjectType;
import io.gitfn.manifest.RelativeSources;
import io.gitfn.reconcile.sync.FunctionSync;
import io.gitfn.source.EnclosingRepository;
import io.gitfn.source.FolderTree;
import io.gitfn.source.Revision;
import io.gitfn.workload.ConfigMapReferences;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code gitfn diff <folder>}: what applying a folder's ConfigMaps, Functions and routes would change in the cluster,
 * found by a server-side dry-run apply as field manager {@code gitfn}, so that defaults, webhooks and field ownership
 * are the server's and not a guess.
 */
@Command(name = "diff", mixinStandardHelpOptions = true,
    description = "Show what applying a folder's ConfigMaps, Functions and routes would change, by a server-side dry"
        + " run.",
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {"0:nothing would change", "1:something would change", "2:an error; nothing was compared"})
final class DiffCommand extends ClusterCommand {

  static final int CHANGES = 1;
  static final int ERROR = 2;
  private static final ResourceDefinitionContext FUNCTIONS = ResourceDefinitionContext.fromResourceType(Function.class);
  // A folder has no commit; the revision annotation it would set is left out of the comparison anyway.
  private static final Revision FOLDER = new Revision("folder", "0".repeat(40));

  @Parameters(index = "0", paramLabel = "<folder>", description = "A local folder, as gitfn render reads it.")
  Path folder;

  @Option(names = "--path", paramLabel = "P", defaultValue = "",
      description = "The folder under <folder> to read, like spec.path. Default: all.")
  String path;

  @Option(names = "--ignore", paramLabel = "PATTERN", description = "A gitignore pattern to leave out; repeatable.")
  List<String> ignore = new ArrayList<>();

  @Option(names = "--repository", paramLabel = "NAME",
      description = "The FunctionRepository that would apply the folder: its label is set on new Functions,"
          + " ConfigMaps and routes, and those it made that the folder no longer has are shown as removed (unless"
          + " spec.prune is false).")
  String repository;

  @Override
  int failureExitCode() {
    return ERROR;
  }

  @Override
  int run(KubernetesClient client, String namespace) {
    Manifest manifest = read();
    List<ConfigMap> configMaps = configMapsIn(manifest, namespace);
    MixedOperation<GenericKubernetesResource, GenericKubernetesResourceList, Resource<GenericKubernetesResource>> functions =
        client.genericKubernetesResources(FUNCTIONS);
    FunctionRepository owning = repository == null ? null
        : ClusterObjects.one(client, FunctionRepository.class, "functionrepository", namespace, repository);
    String owner = owning == null ? null : Labels.repository(namespace, repository);
    resolveRelativeUrls(manifest, owning, namespace);
    // ConfigMaps first, as the controller writes them before the Functions that read them.
    KindDiffs.Result configMapDiff = new KindDiffs(client, namespace, ObjectType.CONFIG_MAP, ObjectDiff.CONFIG_MAP)
        .compare(configMaps, owning, FOLDER, owning == null || owning.getStatus() == null
            || owning.getStatus().getConfigMaps() == null ? List.of() : owning.getStatus().getConfigMaps().stream()
            .map(AppliedConfigMap::getName).toList());
    refuseIfAny(configMapDiff, "ConfigMap");
    StringBuilder diff = new StringBuilder(configMapDiff.diff());
    Map<String, ConfigMap> configMapsByName = configMaps.stream()
        .collect(Collectors.toMap(c -> c.getMetadata().getName(), c -> c));
    Set<String> seen = new HashSet<>();
    for (Function function : manifest.functions()) {
      String target = function.getMetadata().getNamespace() == null ? namespace : function.getMetadata().getNamespace();
      String name = function.getMetadata().getName();
      String key = target + "/" + name;
      seen.add(key);
      // As the controller annotates it, so that a changed ConfigMap shows as the rollout of the Functions reading it.
      ConfigMapReferences.digest(function, configMapsByName)
          .ifPresent(digest -> annotate(function, Annotations.CONFIG_MAPS_DIGEST, digest));
      GenericKubernetesResource live = functions.inNamespace(target).withName(name).get();
      String label = live == null || live.getMetadata().getLabels() == null ? null
          : live.getMetadata().getLabels().get(Labels.REPOSITORY);
      GenericKubernetesResource applied = applied(function, target, label != null ? label : owner);
      GenericKubernetesResource after;
      try {
        after = functions.inNamespace(target).resource(applied).dryRun().fieldManager(FieldManagers.SYNC)
            .forceConflicts().serverSideApply();
      } catch (KubernetesClientException e) {
        throw new CommandException("Function " + key + " would be refused: "
            + (e.getStatus() != null && e.getStatus().getMessage() != null ? e.getStatus().getMessage() : e.getMessage()));
      }
      diff.append(live == null ? ObjectDiff.FUNCTION.added(key, after) : ObjectDiff.FUNCTION.changed(key, live, after));
    }
    if (owning != null && prunes(owning)) {
      for (GenericKubernetesResource live : functions.inNamespace(namespace)
          .withLabel(Labels.REPOSITORY, owner).list().getItems()) {
        String key = namespace + "/" + live.getMetadata().getName();
        if (!seen.contains(key)) {
          diff.append(ObjectDiff.FUNCTION.removed(key, live));
        }
      }
    }
    // Routes last, as the controller writes them after the Functions they route to.
    for (Map.Entry<ObjectType, List<GenericKubernetesResource>> kind : objectsIn(manifest, namespace, owning)
        .entrySet()) {
      ObjectType type = kind.getKey();
      KindDiffs.Result objectDiff = new KindDiffs(client, namespace, type, ObjectDiff.whole(type.kind()))
          .compare(kind.getValue(), owning, FOLDER, owning == null || owning.getStatus() == null
              || owning.getStatus().getObjects() == null ? List.of() : owning.getStatus().getObjects().stream()
              .filter(o -> type.equals(new ObjectType(o.getApiVersion(), o.getKind())))
              .map(AppliedObject::getName).toList());
      refuseIfAny(objectDiff, type.kind());
      diff.append(objectDiff.diff());
    }
    out().print(diff);
    out().flush();
    return diff.length() == 0 ? 0 : CHANGES;
  }

  private Manifest read() {
    if (!Files.isDirectory(folder)) {
      throw new CommandException(folder + " is not a folder");
    }
    try {
      Manifest manifest = new ManifestReader(ManifestOptions.defaults()).read(new FolderTree(folder), path, ignore);
      manifest.notices().forEach(notice -> note("notice: " + notice));
      if (!manifest.encryptedSecrets().isEmpty()) {
        note("notice: the folder's " + manifest.encryptedSecrets().size() + " encrypted Secret(s) are not compared:"
            + " diff does not decrypt them");
      }
      return manifest;
    } catch (InvalidManifestException e) {
      // Every error, not just the first: one line each, as render prints them.
      note("the folder is invalid; nothing would be applied:");
      e.errors().stream().map(ManifestError::toString).forEach(this::note);
      throw new CommandException(e.errors().size() + " error(s) in " + folder);
    } catch (IOException e) {
      throw new CommandException("cannot read " + folder + ": " + e.getMessage());
    }
  }

  /**
   * Makes the folder's relative Git URLs absolute as the FunctionRepository that would apply it does (its URL and
   * Secret), or without one against the Git repository around the folder.
   */
  private void resolveRelativeUrls(Manifest manifest, FunctionRepository owning, String namespace) {
    RelativeSources.Base base = owning == null ? EnclosingRepository.of(folder)
        : RelativeSources.Base.of(owning.getSpec().getUrl().strip(), auth(owning), namespace);
    List<ManifestError> errors = RelativeSources.resolve(manifest.functions(), base);
    if (!errors.isEmpty()) {
      note("a relative Git URL cannot be resolved; nothing would be applied:");
      errors.stream().map(ManifestError::toString).forEach(this::note);
      throw new CommandException(errors.size() + " error(s) in " + folder);
    }
  }

  /**
   * The repository's Secret as a Function's auth. The controller types it by the Secret's keys, which diff does not
   * read; a Secret that works says the same as the URL's form (a key for SSH, a password or token otherwise).
   */
  private static RepositoryAuth auth(FunctionRepository repository) {
    if (repository.getSpec().getSecretRef() == null) {
      return null;
    }
    String url = repository.getSpec().getUrl().strip();
    RepositoryAuth auth = new RepositoryAuth();
    auth.setType(url.startsWith("ssh://") || !url.contains("://") ? AuthType.KEY : AuthType.BASIC);
    auth.setSecretName(repository.getSpec().getSecretRef().getName());
    return auth;
  }

  private void refuseIfAny(KindDiffs.Result result, String kind) {
    if (!result.refusals().isEmpty()) {
      result.refusals().forEach(this::note);
      throw new CommandException(result.refusals().size() + " " + kind + "(s) would make the controller refuse the"
          + " folder; nothing would be applied");
    }
  }

  /**
   * The folder's routes (and other allowed kinds) by kind, in {@code namespace}, with every kind the repository owns
   * some of, so that one the folder dropped whole shows as pruned; one naming another namespace is refused.
   */
  private Map<ObjectType, List<GenericKubernetesResource>> objectsIn(Manifest manifest, String namespace,
      FunctionRepository owning) {
    List<ManifestError> elsewhere = manifest.objects().stream()
        .flatMap(object -> object.refusedIn(namespace).stream()).toList();
    if (!elsewhere.isEmpty()) {
      note("an object names another namespace than the repository's; nothing would be applied:");
      elsewhere.stream().map(ManifestError::toString).forEach(this::note);
      throw new CommandException(elsewhere.size() + " object(s) in another namespace than " + namespace);
    }
    Map<ObjectType, List<GenericKubernetesResource>> byKind = new TreeMap<>(
        Comparator.comparing(ObjectType::toString));
    if (owning != null && owning.getStatus() != null && owning.getStatus().getObjects() != null) {
      owning.getStatus().getObjects().forEach(o -> byKind.put(new ObjectType(o.getApiVersion(), o.getKind()),
          new ArrayList<>()));
    }
    manifest.objects().forEach(object -> byKind.computeIfAbsent(object.type(), type -> new ArrayList<>())
        .add(object.in(namespace)));
    return byKind;
  }

  /** The folder's ConfigMaps in {@code namespace}, the repository's; one naming another is refused, as render does. */
  private List<ConfigMap> configMapsIn(Manifest manifest, String namespace) {
    List<ManifestError> elsewhere = manifest.configMaps().stream()
        .flatMap(configMap -> configMap.refusedIn(namespace).stream()).toList();
    if (!elsewhere.isEmpty()) {
      note("a ConfigMap names another namespace than the repository's; nothing would be applied:");
      elsewhere.stream().map(ManifestError::toString).forEach(this::note);
      throw new CommandException(elsewhere.size() + " ConfigMap(s) in another namespace than " + namespace);
    }
    return manifest.configMaps().stream().map(configMap -> configMap.in(namespace)).toList();
  }

  private static void annotate(Function function, String key, String value) {
    Map<String, String> annotations = new TreeMap<>(Objects.requireNonNullElse(
        function.getMetadata().getAnnotations(), Map.of()));
    annotations.put(key, value);
    function.getMetadata().setAnnotations(annotations);
  }

  static boolean prunes(FunctionRepository repository) {
    return repository.getSpec() == null || !Boolean.FALSE.equals(repository.getSpec().getPrune());
  }

  private static GenericKubernetesResource applied(Function function, String namespace, String owner) {
    GenericKubernetesResource object = FunctionSync.appliedObject(function, namespace, owner == null ? "" : owner, FOLDER);
    if (owner == null) {
      object.getMetadata().getLabels().remove(Labels.REPOSITORY);
    }
    return object;
  }
}
