package io.gitfn.manifest;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.gitfn.api.function.Function;
import io.gitfn.api.function.FunctionRuntime;
import io.gitfn.api.function.FunctionSpec;
import io.gitfn.api.function.GitRepositorySource;
import io.gitfn.api.function.InlineSource;
import io.gitfn.api.function.ProfileOrResources;
import io.gitfn.api.function.RepositoryAuth;
import io.gitfn.api.function.ResourceConfiguration;
import io.gitfn.api.function.Source;
import java.io.IOException;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Format 2: a Kyma CLI function folder, a {@code config.yaml} (as {@code kyma init function} writes it) with its
 * handler and dependency file, converted as {@code kyma apply function} does. Resources go where v1alpha2 has
 * them ({@code resourceConfiguration.function.resources}), under either key: {@code resources} as documented or
 * {@code resource} as the CLI writes it.
 */
final class KymaConfigReader {

  static final String FILE_NAME = "config.yaml";

  private static final List<String> KEYS = List.of("name", "namespace", "runtime", "runtimeImageOverride",
      "labels", "runtimeLabels", "runtimeAnnotations", "source", "resource", "resources", "env", "subscriptions",
      "apiRules", "schemaVersion");
  private static final List<String> SOURCE_KEYS = List.of("sourceType", "sourcePath", "sourceHandlerName",
      "depsHandlerName", "url", "repository", "reference", "baseDir", "credentialsType", "credentialsSecretName");

  /**
   * The Function of a Kyma CLI folder, and the files it took (so no other format reads them again); a path
   * ending in {@code /} is a folder it took.
   */
  record KymaFolder(Candidate candidate, Set<String> files, List<DeclaredObject> objects) {}

  private final String root;

  KymaConfigReader(String root) {
    this.root = root;
  }

  Optional<KymaFolder> read(String configFile, RevisionFiles files, List<ManifestError> errors,
      List<ManifestNotice> notices, AllowedKinds allowed) throws IOException {
    Optional<String> text = files.text(configFile);
    if (text.isEmpty()) {
      return Optional.empty();
    }
    List<YamlDocument> documents = YamlFile.parse(configFile, text.get(), errors);
    if (documents.isEmpty()) {
      errors.add(new ManifestError(configFile, 0, null, notAConfig("it is empty")));
      return Optional.empty();
    }
    YamlDocument config = documents.get(0);
    JsonNode tree = config.tree();
    if (documents.size() > 1) {
      errors.add(new ManifestError(configFile, documents.get(1).lines().documentLine(), null,
          notAConfig("it has " + documents.size() + " YAML documents")));
      return Optional.empty();
    }
    if (!tree.isObject()) {
      errors.add(new ManifestError(configFile, config.lines().documentLine(), null, notAConfig("it is not a mapping")));
      return Optional.empty();
    }
    if (tree.has("kind") || tree.has("apiVersion")) {
      errors.add(config.error("kind", notAConfig("it is a Kubernetes " + tree.path("kind").asText("object"))));
      return Optional.empty();
    }
    return new Conversion(configFile, config, files, errors, notices, allowed).run();
  }

  private static String notAConfig(String why) {
    return "is not a Kyma CLI function config (" + why + "); in gitfn a file named config.yaml is one, with name,"
        + " runtime and source. Rename this file or list it in .gitfnignore";
  }

  /** One config.yaml turned into a Function. */
  private final class Conversion {
    private final String configFile;
    private final String folder;
    private final YamlDocument config;
    private final JsonNode tree;
    private final RevisionFiles files;
    private final List<ManifestError> errors;
    private final List<ManifestNotice> notices;
    private final AllowedKinds allowed;
    private final Set<String> reported = new HashSet<>();
    private final Set<String> taken = new HashSet<>();
    private String handler;
    private String dependencies;

    Conversion(String configFile, YamlDocument config, RevisionFiles files, List<ManifestError> errors,
        List<ManifestNotice> notices, AllowedKinds allowed) {
      this.allowed = allowed;
      this.configFile = configFile;
      this.folder = RepoPaths.parent(configFile);
      this.config = config;
      this.tree = config.tree();
      this.files = files;
      this.errors = errors;
      this.notices = notices;
      taken.add(configFile);
      taken.add(folder + "/");
    }

    Optional<KymaFolder> run() throws IOException {
      checkKeys(tree, "", KEYS);
      checkKeys(tree.path("source"), "source", SOURCE_KEYS);
      String name = text("name");
      if (name == null) {
        errors.add(config.error("name", notAConfig("it has no name")));
        return Optional.empty();
      }
      Function function = new Function();
      function.setMetadata(metadata(name));
      FunctionSpec spec = new FunctionSpec();
      function.setSpec(spec);
      spec.setRuntime(runtime());
      spec.setRuntimeImageOverride(text("runtimeImageOverride"));
      spec.setLabels(map("runtimeLabels"));
      spec.setAnnotations(map("runtimeAnnotations"));
      if (tree.has("env")) {
        TreeBinder.checkFields(config, tree.get("env"), TreeBinder.listOf(EnvVar.class), "env", errors);
        spec.setEnv(TreeBinder.<List<EnvVar>>bind(config, tree.get("env"), TreeBinder.listOf(EnvVar.class), "env",
            errors).orElse(null));
      }
      spec.setResourceConfiguration(resources());
      spec.setSource(source(spec.getRuntime()));
      noticeIgnoredParts();
      Origin origin = new FolderOrigin(folder, handler, dependencies, config);
      return Optional.of(new KymaFolder(new Candidate(function, origin, reported), taken, apiRules(name)));
    }

    private ObjectMeta metadata(String name) {
      ObjectMeta metadata = new ObjectMeta();
      metadata.setName(name);
      metadata.setNamespace(text("namespace"));
      Map<String, String> labels = new LinkedHashMap<>();
      Map<String, String> given = map("labels");
      if (given != null) {
        labels.putAll(given);
      }
      // kyma apply function adds it too.
      labels.putIfAbsent("app.kubernetes.io/name", name);
      metadata.setLabels(labels);
      return metadata;
    }

    private FunctionRuntime runtime() {
      String runtime = text("runtime");
      if (runtime == null) {
        return null;
      }
      Optional<FunctionRuntime> known = Runtimes.parse(runtime);
      if (known.isEmpty()) {
        errors.add(config.error("runtime", Runtimes.unsupported(runtime)).withField("spec.runtime"));
        reported.add("spec.runtime");
      }
      return known.orElse(null);
    }

    private ResourceConfiguration resources() {
      if (tree.has("resource") && tree.has("resources")) {
        errors.add(config.error("resources", "config.yaml has both resource and resources; keep one"));
        return null;
      }
      String key = tree.has("resources") ? "resources" : "resource";
      if (!tree.has(key)) {
        return null;
      }
      TreeBinder.checkFields(config, tree.get(key), ResourceRequirements.class, key, errors);
      Optional<ResourceRequirements> requirements =
          TreeBinder.bind(config, tree.get(key), ResourceRequirements.class, key, errors);
      if (requirements.isEmpty()) {
        return null;
      }
      ProfileOrResources function = new ProfileOrResources();
      function.setResources(requirements.get());
      ResourceConfiguration configuration = new ResourceConfiguration();
      configuration.setFunction(function);
      return configuration;
    }

    private Source source(FunctionRuntime runtime) throws IOException {
      String type = text("source.sourceType");
      if (type == null) {
        type = text("source.url") != null ? "git" : "inline";
      }
      Source source = new Source();
      if (type.equals("git")) {
        source.setGitRepository(git());
      } else if (type.equals("inline")) {
        source.setInline(inline(runtime));
      } else {
        errors.add(config.error("source.sourceType", "source type `" + type + "` is not one of inline, git"));
        reported.add("spec.source");
      }
      return source;
    }

    private GitRepositorySource git() {
      GitRepositorySource git = new GitRepositorySource();
      git.setUrl(text("source.url"));
      git.setReference(text("source.reference"));
      String baseDir = text("source.baseDir");
      git.setBaseDir(baseDir == null ? "/" : baseDir);
      String secretName = text("source.credentialsSecretName");
      if (secretName != null) {
        RepositoryAuth auth = new RepositoryAuth();
        auth.setSecretName(secretName);
        String authType = text("source.credentialsType");
        if (authType != null) {
          auth.setType(Runtimes.parseAuth(authType).orElse(null));
          if (auth.getType() == null) {
            errors.add(config.error("source.credentialsType", Runtimes.unsupportedAuth(authType)));
            reported.add("spec.source.gitRepository.auth.type");
          }
        }
        git.setAuth(auth);
      }
      return git;
    }

    private InlineSource inline(FunctionRuntime runtime) throws IOException {
      if (runtime == null) {
        // Without a runtime there are no default file names; the runtime error says what to fix.
        reported.add("spec.source.inline.source");
        return new InlineSource();
      }
      boolean node = Runtimes.isNode(runtime);
      Optional<String> sourceFolder = sourceFolder();
      if (sourceFolder.isEmpty()) {
        reported.add("spec.source.inline.source");
        return new InlineSource();
      }
      InlineSource inline = new InlineSource();
      handler = file(sourceFolder.get(), "source.sourceHandlerName", node ? "handler.js" : "handler.py");
      dependencies = file(sourceFolder.get(), "source.depsHandlerName", node ? "package.json" : "requirements.txt");
      // The folder of the code belongs to this Function; a handler there is not another one.
      taken.add(sourceFolder.get() + "/");
      inline.setSource(handler == null ? null : files.text(handler).orElse(null));
      if (inline.getSource() == null) {
        reported.add("spec.source.inline.source");
      }
      if (dependencies != null) {
        inline.setDependencies(files.text(dependencies).orElse(null));
      }
      return inline;
    }

    // The folder of the code: sourcePath relative to config.yaml's folder, which must stay under the path.
    private Optional<String> sourceFolder() {
      String sourcePath = text("source.sourcePath");
      if (sourcePath == null || sourcePath.isBlank()) {
        return Optional.of(folder);
      }
      if (sourcePath.startsWith("/")) {
        errors.add(config.error("source.sourcePath", "`" + sourcePath + "` is absolute; in a repository it must be"
            + " relative to the folder of config.yaml (or left out for that folder)"));
        return Optional.empty();
      }
      Optional<String> resolved = RepoPaths.normalize(RepoPaths.join(folder, sourcePath))
          .filter(path -> RepoPaths.within(path, root));
      if (resolved.isEmpty()) {
        errors.add(config.error("source.sourcePath", "`" + sourcePath + "` leaves `" + RepoPaths.shown(root)
            + "`; gitfn reads nothing outside the repository's path"));
      }
      return resolved;
    }

    // The file named by key (or its default) in folder, or null with an error when it is not there.
    private String file(String sourceFolder, String key, String defaultName) {
      String name = text(key);
      String fileName = name == null ? defaultName : name;
      Optional<String> path = RepoPaths.normalize(RepoPaths.join(sourceFolder, fileName))
          .filter(p -> RepoPaths.within(p, root));
      if (path.isEmpty()) {
        errors.add(config.error(key, "`" + fileName + "` leaves `" + RepoPaths.shown(root) + "`"));
        return null;
      }
      if (!files.has(path.get())) {
        errors.add(config.error(name == null ? "source" : key, "there is no " + fileName + " in `"
            + RepoPaths.shown(sourceFolder) + "` (or it is ignored); add it"
            + (name == null ? " or set " + key : " or fix " + key)));
        return null;
      }
      taken.add(path.get());
      return path.get();
    }

    private void checkKeys(JsonNode node, String path, List<String> known) {
      if (!node.isObject()) {
        return;
      }
      node.fieldNames().forEachRemaining(key -> {
        if (!known.contains(key)) {
          String field = path.isEmpty() ? key : path + "." + key;
          errors.add(config.error(field, "unknown field `" + key + "` of a Kyma CLI config.yaml; a typo? Known here: "
              + String.join(", ", known)));
        }
      });
    }

    private void noticeIgnoredParts() {
      JsonNode subscriptions = tree.path("subscriptions");
      if (subscriptions.isArray() && subscriptions.size() > 0) {
        notices.add(new ManifestNotice(configFile, config.line("subscriptions"), "subscriptions are not applied by"
            + " gitfn, only the Function; declare them as resources of their own"));
      }
    }

    /** The APIRules of {@code apiRules} ({@link KymaApiRules}), when the controller applies APIRules. */
    private List<DeclaredObject> apiRules(String name) {
      JsonNode apiRules = tree.path("apiRules");
      if (apiRules.isMissingNode() || apiRules.isNull() || (apiRules.isArray() && apiRules.isEmpty())) {
        return List.of();
      }
      if (!allowed.allows(ObjectType.API_RULE)) {
        notices.add(new ManifestNotice(configFile, config.line("apiRules"), "apiRules are not applied: the"
            + " controller does not allow " + ObjectType.API_RULE + " (it takes " + allowed.shown() + ")"));
        return List.of();
      }
      return new KymaApiRules(config, name, text("namespace"), errors).translate(apiRules);
    }

    private String text(String dottedPath) {
      JsonNode node = tree;
      for (String part : dottedPath.split("\\.")) {
        node = node.path(part);
      }
      if (node.isMissingNode() || node.isNull()) {
        return null;
      }
      if (!node.isValueNode()) {
        errors.add(config.error(dottedPath, "must be a single value, not a list or mapping"));
        return null;
      }
      return node.asText();
    }

    private Map<String, String> map(String key) {
      JsonNode node = tree.path(key);
      if (node.isMissingNode() || node.isNull()) {
        return null;
      }
      return TreeBinder.<Map<String, String>>bind(config, node, TreeBinder.stringMap(), key, errors).orElse(null);
    }
  }
}
