package io.gitfn.manifest;

import io.gitfn.api.Annotations;
import io.gitfn.api.function.Function;
import io.gitfn.api.function.FunctionRuntime;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Reads the desired Functions of one revision from a folder of its tree, in three formats: Function YAML
 * documents, Kyma CLI folders ({@code config.yaml}) and plain function folders; its SOPS-encrypted Secrets, kept
 * encrypted; its ConfigMaps; and its objects of the other kinds the controller allows (routes, and the APIRules of a
 * Kyma CLI {@code config.yaml}). Pure: it sees files only through
 * the {@link SourceTree} it is given.
 *
 * <p>All or nothing: any error in any file rejects the whole revision, and every error is reported at once.
 */
public final class ManifestReader {

  private final ManifestOptions options;
  private final FunctionDocumentReader documents;
  private final PlainFolderReader plainFolders = new PlainFolderReader();
  private final FunctionValidator validator;

  public ManifestReader(ManifestOptions options) {
    this.options = options;
    this.documents = new FunctionDocumentReader(options.allowedKinds());
    this.validator = new FunctionValidator(options.maxSourceBytes(), true);
  }

  /**
   * Every Function under {@code path}, sorted by name.
   *
   * @param path the folder to read ("" or "." for the whole tree); {@code ..} may not leave the tree
   * @param ignorePatterns gitignore lines, relative to {@code path}, that exclude more (FunctionRepository
   *     {@code spec.ignore}); they take precedence over {@code .gitfnignore} files
   * @throws InvalidManifestException with every error, when any file is invalid
   * @throws IOException when the tree cannot be read; that says nothing about the revision's content
   */
  public Manifest read(SourceTree tree, String path, List<String> ignorePatterns)
      throws InvalidManifestException, IOException {
    String given = path == null ? "" : path.trim();
    Optional<String> normalized = RepoPaths.normalize(given);
    if (normalized.isEmpty()) {
      throw new InvalidManifestException(List.of(new ManifestError(given, 0, null,
          "path leaves the repository through `..`; give a folder inside it")));
    }
    String root = normalized.get();
    List<ManifestError> errors = new ArrayList<>();
    List<ManifestNotice> notices = new ArrayList<>();
    List<EncryptedDocument> secrets = new ArrayList<>();
    List<DeclaredConfigMap> configMaps = new ArrayList<>();
    List<DeclaredObject> objects = new ArrayList<>();

    List<String> listed = tree.list(root, options.maxFiles());
    if (listed.size() > options.maxFiles()) {
      throw new InvalidManifestException(List.of(new ManifestError(RepoPaths.shown(root), 0, null, "holds more than "
          + options.maxFiles() + " files, the most gitfn reads in one revision; point the path at a smaller folder")));
    }
    IgnoreRules ignore = ignoreRules(tree, listed, ignorePatterns, root, errors);
    List<String> kept = listed.stream()
        .filter(file -> !RepoPaths.name(file).equals(IgnoreRules.FILE_NAME))
        .filter(file -> !ignore.excludes(file))
        .toList();
    RevisionFiles files = new RevisionFiles(tree, root, kept, options.maxReadBytes(), errors);

    List<Candidate> candidates = new ArrayList<>();
    Set<String> taken = new HashSet<>();
    KymaConfigReader kyma = new KymaConfigReader(root);
    for (String file : files.all()) {
      if (RepoPaths.name(file).equals(KymaConfigReader.FILE_NAME)) {
        kyma.read(file, files, errors, notices, options.allowedKinds()).ifPresent(folder -> {
          objects.addAll(folder.objects());
          candidates.add(folder.candidate());
          taken.addAll(folder.files());
        });
      }
    }
    Set<String> folders = new TreeSet<>();
    for (String file : files.all()) {
      if (PlainFolderReader.isHandler(file) && !taken.contains(file)) {
        folders.add(RepoPaths.parent(file));
      }
    }
    for (String folder : folders) {
      plainFolders.read(folder, files, taken, errors).ifPresent(candidates::add);
    }
    for (String file : files.all()) {
      if (isYaml(file) && !taken.contains(file) && !RepoPaths.name(file).equals(KymaConfigReader.FILE_NAME)) {
        files.text(file).ifPresent(text -> candidates.addAll(documents.read(file, text, errors, notices, secrets,
            configMaps, objects)));
      }
      if (configMaps.size() > options.maxConfigMaps()) {
        // Each is kept whole until the revision is applied: stop before a few bytes per document add up.
        errors.add(new ManifestError(RepoPaths.shown(root), 0, null, "declares more than "
            + options.maxConfigMaps() + " ConfigMaps, the most one revision may declare; split them over several"
            + " FunctionRepositories"));
        configMaps.clear();
        break;
      }
      if (objects.size() > options.maxObjects()) {
        errors.add(new ManifestError(RepoPaths.shown(root), 0, null, "declares more than "
            + options.maxObjects() + " objects besides Functions, ConfigMaps and Secrets, the most one revision may"
            + " declare; split them over several FunctionRepositories"));
        objects.clear();
        break;
      }
    }

    if (candidates.size() > options.maxFunctions()) {
      errors.add(new ManifestError(RepoPaths.shown(root), 0, null, "declares " + candidates.size()
          + " Functions, more than the " + options.maxFunctions() + " one revision may declare; split them over"
          + " several FunctionRepositories"));
      candidates.clear();
    }
    for (Candidate candidate : candidates) {
      for (Violation violation : validator.check(candidate.function())) {
        if (!candidate.reported().contains(violation.field())) {
          errors.add(candidate.origin().error(violation.field(), violation.message()));
        }
      }
    }
    checkUniqueNames(candidates, errors);
    checkUniqueConfigMapNames(configMaps, errors);
    checkUniqueObjectNames(objects, errors);
    if (!errors.isEmpty()) {
      List<ManifestError> sorted = new ArrayList<>(new LinkedHashSet<>(errors));
      sorted.sort(ManifestError.BY_PLACE);
      throw new InvalidManifestException(sorted);
    }
    List<Function> functions = new ArrayList<>();
    for (Candidate candidate : candidates) {
      Function function = candidate.function();
      FunctionRuntime runtime = function.getSpec().getRuntime();
      if (runtime != null && runtime.deprecated()) {
        notices.add(candidate.origin().notice("spec.runtime", runtime
            + " is deprecated by Kyma and will be removed; it still builds and runs. Move to "
            + FunctionRuntime.DEFAULT + "."));
      }
      Map<String, String> annotations = function.getMetadata().getAnnotations() == null
          ? new LinkedHashMap<>()
          : new LinkedHashMap<>(function.getMetadata().getAnnotations());
      annotations.put(Annotations.SOURCE_PATH, candidate.origin().sourcePath());
      function.getMetadata().setAnnotations(annotations);
      functions.add(function);
    }
    functions.sort(Comparator.comparing(f -> f.getMetadata().getName()));
    configMaps.sort(Comparator.comparing(DeclaredConfigMap::name));
    objects.sort(Comparator.comparing((DeclaredObject o) -> o.type().toString()).thenComparing(DeclaredObject::name));
    return new Manifest(functions, notices, secrets, configMaps, objects);
  }

  private IgnoreRules ignoreRules(SourceTree tree, List<String> listed, List<String> patterns, String root,
      List<ManifestError> errors) throws IOException {
    IgnoreRules rules = new IgnoreRules();
    List<String> ignoreFiles = listed.stream()
        .filter(file -> RepoPaths.name(file).equals(IgnoreRules.FILE_NAME))
        .sorted(Comparator.comparingInt((String file) -> file.split("/").length).thenComparing(file -> file))
        .toList();
    for (String file : ignoreFiles) {
      if (tree.symlinkTarget(file).isEmpty()) {
        rules.add(RepoPaths.parent(file), new String(tree.read(file), StandardCharsets.UTF_8), file, errors);
      }
    }
    if (patterns != null) {
      rules.add(root, String.join("\n", patterns), "spec.ignore", errors);
    }
    return rules;
  }

  private static void checkUniqueNames(List<Candidate> candidates, List<ManifestError> errors) {
    Map<String, Candidate> first = new HashMap<>();
    for (Candidate candidate : candidates) {
      String name = candidate.function().getMetadata() == null ? null : candidate.function().getMetadata().getName();
      if (name == null || name.isBlank()) {
        continue;
      }
      Candidate earlier = first.putIfAbsent(name, candidate);
      if (earlier != null) {
        ManifestError there = earlier.origin().error("metadata.name", "");
        errors.add(candidate.origin().error("metadata.name", "Function `" + name + "` is also defined in "
            + there.file() + (there.line() > 0 ? ":" + there.line() : "") + "; Function names must be unique"));
      }
    }
  }

  /** Two ConfigMaps of one name would be one object in the repository's namespace, the last applied winning. */
  private static void checkUniqueConfigMapNames(List<DeclaredConfigMap> configMaps, List<ManifestError> errors) {
    Map<String, DeclaredConfigMap> first = new HashMap<>();
    for (DeclaredConfigMap configMap : configMaps) {
      DeclaredConfigMap earlier = first.putIfAbsent(configMap.name(), configMap);
      if (earlier != null) {
        errors.add(new ManifestError(configMap.file(), configMap.line(), "metadata.name", "ConfigMap `"
            + configMap.name() + "` is also declared in " + earlier.file() + ":" + earlier.line()
            + "; ConfigMap names must be unique"));
      }
    }
  }

  /** Two objects of one kind and name would be one object in the repository's namespace, the last applied winning. */
  private static void checkUniqueObjectNames(List<DeclaredObject> objects, List<ManifestError> errors) {
    Map<String, DeclaredObject> first = new HashMap<>();
    for (DeclaredObject object : objects) {
      DeclaredObject earlier = first.putIfAbsent(object.type() + " " + object.name(), object);
      if (earlier != null) {
        errors.add(new ManifestError(object.file(), object.line(), "metadata.name", object.type().kind() + " `"
            + object.name() + "` is also declared in " + earlier.place() + "; names must be unique within a kind"));
      }
    }
  }

  private static boolean isYaml(String file) {
    return file.endsWith(".yaml") || file.endsWith(".yml");
  }
}
