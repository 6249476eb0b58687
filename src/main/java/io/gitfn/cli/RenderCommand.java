package io.gitfn.cli;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.KubernetesList;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.gitfn.BuildInfo;
import io.gitfn.api.KubernetesNames;
import io.gitfn.api.function.ConditionReason;
import io.gitfn.api.function.BuildMode;
import io.gitfn.api.function.Function;
import io.gitfn.api.function.GitRepositorySource;
import io.gitfn.build.BuildContextTooLargeException;
import io.gitfn.build.BuildSettings;
import io.gitfn.build.ImageBuilder;
import io.gitfn.build.FunctionBuildPlan;
import io.gitfn.manifest.DeclaredConfigMap;
import io.gitfn.manifest.EncryptedDocument;
import io.gitfn.manifest.InvalidManifestException;
import io.gitfn.manifest.Manifest;
import io.gitfn.manifest.ManifestError;
import io.gitfn.manifest.ManifestOptions;
import io.gitfn.manifest.ManifestReader;
import io.gitfn.manifest.RelativeSources;
import io.gitfn.registry.FunctionImages;
import io.gitfn.registry.ImageAssembler;
import io.gitfn.registry.RegistryAccess;
import io.gitfn.registry.RegistryFailure;
import io.gitfn.secrets.DecryptedSecret;
import io.gitfn.secrets.MaskedSecret;
import io.gitfn.secrets.SecretDecryptor;
import io.gitfn.secrets.SecretException;
import io.gitfn.secrets.age.AgeException;
import io.gitfn.secrets.age.AgeIdentity;
import io.gitfn.secrets.sops.SopsFile;
import io.gitfn.source.EnclosingRepository;
import io.gitfn.source.FolderTree;
import io.gitfn.source.GitBaseDir;
import io.gitfn.source.GitCredentials;
import io.gitfn.source.MirrorCache;
import io.gitfn.source.RefSelector;
import io.gitfn.source.RepositoryUrl;
import io.gitfn.source.SourceException;
import io.gitfn.source.SourceSettings;
import io.gitfn.workload.WorkloadSettings;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine;

/**
 * {@code gitfn render}: the Functions a folder or a Git repository declares, as gitfn would apply them. No cluster
 * is needed; an invalid revision prints every error with its file and line and exits 1.
 *
 * <p>Its SOPS-encrypted Secrets come first, each with its values masked ({@link MaskedSecret}); with
 * {@code --age-identity} they are decrypted in memory, as the controller will, and printed as they would be applied.
 * Its ConfigMaps follow, in the namespace {@code -n} names, as a FunctionRepository there places them
 * ({@link DeclaredConfigMap#in}); its routes (and other allowed kinds, a Kyma CLI folder's APIRules among them) come
 * after the Functions, in that namespace too.
 *
 * <p>With {@code --with-workloads} each Function is followed by the children the Function controller would create
 * for it on a fresh cluster ({@link FunctionChildren}), less the owner references and UID label that only a live
 * Function can give them.
 */
@Command(
    name = "render",
    mixinStandardHelpOptions = true,
    description = "Print the Functions, ConfigMaps, encrypted Secrets and routes that a folder or a Git repository"
        + " declares, without a cluster.",
    footerHeading = "%nWith --with-workloads:%n",
    footer = {
        "Each Function is followed by the ConfigMap and install Job of its dependencies when the registry lacks"
            + " them, its Deployment, its Service and, when scaleConfig has min < max, its HPA, built by the code the"
            + " controller applies them with. A buildless Function (gitfn.io/build-mode, or --build-mode) has its"
            + " source ConfigMap instead, and a Deployment on the base image with an install init container.",
        "They have no ownerReferences and no serverless.kyma-project.io/uuid label: both need the Function's UID,"
            + " which only the cluster assigns, and the controller adds them. Nor do they have the"
            + " gitfn.io/repository label that a FunctionRepository puts on its Functions and so on their children.",
        "A Function with a Git source is resolved as the controller would now: its reference is looked up and its"
            + " baseDir read (a notice on stderr names the revision). Without credentials, render reads public and"
            + " local repositories only; when it cannot resolve one, it prints that Function's Service and HPA"
            + " and says why on stderr.",
        "%nEncrypted Secrets:",
        "A Secret encrypted with SOPS (a file of one document with a top-level sops block) is printed before the"
            + " Functions without being decrypted: each value of data and stringData shows as " + SopsFile.ENCRYPTED
            + " (" + MaskedSecret.NOT_SHOWN + " if sops left it in clear), and so does whatever else sops encrypted,"
            + " the name included with its defaults. With --age-identity FILE (age identities, as age-keygen writes"
            + " them) render decrypts them in memory as the controller would, checks them (a namespace they name must"
            + " be -n's) and prints each as it would be applied, stringData folded into base64 data: the values"
            + " appear on stdout. A file that does not decrypt, or is not a Secret the controller applies, exits 1"
            + " naming the file and the reason.",
        "%nConfigMaps:",
        "A ConfigMap (v1) is printed after the encrypted Secrets and before the Functions, checked as the controller"
            + " checks it (its data are strings: quote an unquoted number or true) and in the namespace of -n, as the"
            + " FunctionRepository there applies it: one that names another namespace exits 1. Like the Functions,"
            + " it has none of the gitfn.io/ labels the controller adds to know it as the repository's.",
        "%nRoutes:",
        "An HTTPRoute, an Ingress or an APIRule (and any kind of the controller's default --allowed-kind list) is"
            + " printed after the Functions, as the file has it less its status, in the namespace of -n; a Kyma CLI"
            + " config.yaml's apiRules are printed as the APIRules (gateway.kyma-project.io/v2) the controller applies"
            + " for them. Their content is checked by the API server when they are applied (gitfn diff shows it)."},
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {"0:the Functions, ConfigMaps and Secrets were printed",
        "1:the revision is invalid, or a ConfigMap or a route names another namespace than -n, or with --with-workloads the"
            + " controller would refuse a Function's spec, or with --age-identity an encrypted Secret does not decrypt"
            + " or is not one the controller applies; the errors are on stderr",
        "2:the folder or repository could not be read, or the options do not go together"})
final class RenderCommand implements Callable<Integer> {

  static final int INVALID = 1;
  static final int UNREADABLE = 2;

  enum Format { yaml, json }

  @Parameters(index = "0", paramLabel = "<folder | git URL>",
      description = "A local folder, or the URL of a Git repository (https://, ssh://, git@host:path, file://).")
  String source;

  @Option(names = "--ref", paramLabel = "R",
      description = "For a Git URL: the branch, tag or full commit SHA to read. Default: main.")
  String ref;

  @Option(names = "--path", paramLabel = "P", defaultValue = "",
      description = "The folder of the repository to read, like a FunctionRepository's spec.path. Default: all.")
  String path;

  @Option(names = "--ignore", paramLabel = "PATTERN",
      description = "A gitignore pattern to leave out, like a line of spec.ignore; may be repeated.")
  List<String> ignore = new ArrayList<>();

  @Option(names = {"-o", "--output"}, defaultValue = "yaml",
      description = "yaml (a stream of documents) or json (a List). Default: ${DEFAULT-VALUE}.")
  Format output;

  @Option(names = "--with-workloads",
      description = "After each Function, print the objects the controller would create for it; see below.")
  boolean withWorkloads;

  @Option(names = "--registry", paramLabel = "HOST[:PORT][/PATH]",
      description = "With --with-workloads: the registry images are pushed to and run from, which image names"
          + " hold. Default: ${DEFAULT-VALUE}.")
  String registry = BuildSettings.defaults().registry();

  @Option(names = "--builder", paramLabel = "layered",
      description = "With --with-workloads: how images are built, as the controller's --builder; layered is the one"
          + " builder (buildah and kaniko were removed). Render asks the registry (anonymously, or with"
          + " $DOCKER_CONFIG/config.json or ~/.docker/config.json) whether the Function's dependency image is there:"
          + " the install Job and its ConfigMap are printed when it is not, and no Job when it is. Default:"
          + " ${DEFAULT-VALUE}.")
  String builder = ImageBuilder.DEFAULT_TOOL.value();

  @Option(names = BaseImageOption.FLAG, paramLabel = "RUNTIME=IMAGE",
      description = "With --with-workloads: the base image of a runtime, as the controller's --base-image"
          + " (repeatable). It is part of every content key, so give the controller's.")
  List<String> baseImages = new ArrayList<>();

  @Option(names = "--insecure-registry", paramLabel = "HOST[:PORT]",
      description = "With --with-workloads: a registry reached over plain HTTP or without verifying TLS, as the"
          + " controller's --insecure-registry (repeatable).")
  List<String> insecureRegistries = new ArrayList<>();

  @Option(names = "--build-mode", paramLabel = "image|buildless",
      description = "With --with-workloads: how Functions without a gitfn.io/build-mode annotation run, as the"
          + " controller's --build-mode. Default: ${DEFAULT-VALUE}.")
  String buildMode = BuildMode.IMAGE.value();

  @Option(names = "--dependency-cache-claim", paramLabel = "CLAIM",
      description = "With --with-workloads: the claim buildless Pods keep installed dependencies in, as the"
          + " controller's --dependency-cache-claim.")
  String dependencyCacheClaim;

  @Option(names = {"-n", "--namespace"}, paramLabel = "NS",
      description = "The namespace of the FunctionRepository that would apply the revision: its ConfigMaps, and with"
          + " --age-identity its encrypted Secrets, go there, and may name it but not another. With"
          + " --with-workloads: the namespace of Functions that name none; their children and image names use it."
          + " Default: ${DEFAULT-VALUE}.")
  String namespace = "default";

  @Option(names = "--age-identity", paramLabel = "FILE",
      description = "Decrypt the encrypted Secrets in memory with the age identities in FILE (as age-keygen writes"
          + " them) and print them as they would be applied, values included; see below. Default: values masked.")
  Path ageIdentity;

  @Option(names = "--offline",
      description = "With --with-workloads: do not fetch the repositories of Functions with a Git source (print"
          + " their Service and HPA only), and do not ask the registry (print no install Job).")
  boolean offline;

  @Option(names = "--cache-dir", paramLabel = "DIR",
      description = "Where Git mirrors are kept. Default: $XDG_CACHE_HOME/gitfn/mirrors or ~/.cache/gitfn/mirrors.")
  Path cacheDir;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  // Mirrors of Git-sourced Functions' own repositories, opened on first use by call(); print() alone reads none.
  private boolean resolveGitSources;
  private MirrorCache functionMirrors;

  /** Each registry request of the layered builder's lookups; a registry that does not answer is reported. */
  static final Duration REGISTRY_DEADLINE = Duration.ofSeconds(10);

  // Where --builder layered asks for dependency images; print() alone (tests) asks no registry.
  private FunctionChildren.DependencyImages dependencyImages = request -> {
    throw new RegistryFailure("no registry is asked here", null);
  };
  private ExecutorService registryPool;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    resolveGitSources = true;
    try {
      checkWorkloadOptions();
      List<AgeIdentity> identities;
      try {
        identities = ageIdentity == null ? null : AgeIdentityFile.read(ageIdentity);
      } catch (IOException | AgeException.MalformedIdentity e) {
        err.println("cannot read --age-identity " + ageIdentity + ": " + e.getMessage());
        return UNREADABLE;
      }
      if (offline) {
        dependencyImages = request -> {
          throw new RegistryFailure("--offline does not ask registry " + request.dependencyRepository().registry(),
              null);
        };
      } else {
        registryPool = Executors.newFixedThreadPool(2, work -> {
          Thread thread = new Thread(work, "gitfn-render-registry");
          thread.setDaemon(true);
          return thread;
        });
        dependencyImages = askingEachRegistryPairOnceAfterAFailure(new FunctionImages(ImageAssembler.boundedAnswers(
            registryAccess(), "gitfn/" + BuildInfo.load().gitfn(), registryPool, REGISTRY_DEADLINE))::find);
      }
      Manifest manifest = render();
      manifest.notices().forEach(notice -> err.println("notice: " + notice));
      List<HasMetadata> first = new ArrayList<>(secrets(manifest.encryptedSecrets(), identities, err));
      List<ManifestError> elsewhere = new ArrayList<>();
      manifest.configMaps().forEach(configMap -> configMap.refusedIn(namespace).ifPresent(elsewhere::add));
      manifest.objects().forEach(object -> object.refusedIn(namespace).ifPresent(elsewhere::add));
      if (!elsewhere.isEmpty()) {
        err.println("an object names another namespace than the repository's; nothing would be applied:");
        elsewhere.forEach(err::println);
        printNamespaceChecked(err);
        return INVALID;
      }
      manifest.configMaps().forEach(configMap -> first.add(configMap.in(namespace)));
      return print(first, manifest.functions(), manifest.objects().stream().map(o -> o.in(namespace)).toList(),
          out, err);
    } catch (InvalidManifestException e) {
      err.println("the revision is invalid; nothing would be applied:");
      e.errors().stream().map(ManifestError::toString).forEach(err::println);
      return INVALID;
    } catch (SecretException e) {
      err.println("an encrypted Secret cannot be applied (" + e.reason().value() + "); nothing would be applied:");
      err.println(e.getMessage());
      if (e.reason() == SecretException.Reason.INVALID_SECRET) {
        printNamespaceChecked(err);
      }
      return INVALID;
    } catch (IOException | SourceException | IllegalArgumentException e) {
      err.println("cannot read " + source + ": " + e.getMessage());
      return UNREADABLE;
    } finally {
      err.flush();
      if (functionMirrors != null) {
        functionMirrors.close();
      }
      if (registryPool != null) {
        registryPool.shutdownNow();
      }
    }
  }

  /** Says which namespace a refusal was checked against, when it is the default rather than the user's. */
  private void printNamespaceChecked(PrintWriter err) {
    if (!spec.commandLine().getParseResult().hasMatchedOption("--namespace")) {
      err.println("(checked as a FunctionRepository in namespace " + namespace + " would check them; -n NS names"
          + " the repository's namespace)");
    }
  }

  private void checkWorkloadOptions() {
    CommandLine.ParseResult parsed = spec.commandLine().getParseResult();
    for (String option : List.of("--registry", "--builder", "--insecure-registry", "--build-mode",
        "--dependency-cache-claim", "--offline", BaseImageOption.FLAG)) {
      if (!withWorkloads && parsed.hasMatchedOption(option)) {
        throw new CommandLine.ParameterException(spec.commandLine(), option + " applies with --with-workloads");
      }
    }
    if (KubernetesNames.namespace(namespace).isPresent()) {
      throw new CommandLine.ParameterException(spec.commandLine(),
          "--namespace: " + KubernetesNames.namespace(namespace).get());
    }
    try {
      buildSettings();
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
    }
  }

  /** The build settings of the options above, as the controller's flags make them. */
  private BuildSettings buildSettings() {
    BuildSettings builds = BuildSettings.defaults();
    for (var base : BaseImageOption.apply(builds.baseImages(), baseImages).entrySet()) {
      builds = builds.withBaseImage(base.getKey(), base.getValue());
    }
    return builds.withRegistry(registry)
        .withBuilder(ImageBuilder.of(ImageBuilder.Tool.parse(builder)))
        .withInsecureRegistries(Set.copyOf(insecureRegistries))
        .withDefaultMode(BuildMode.parse(buildMode))
        .withDependencyCacheClaim(dependencyCacheClaim);
  }

  /**
   * The encrypted Secrets to print: masked, with a notice saying so, or decrypted with {@code identities} when
   * {@code --age-identity} gave them.
   *
   * @throws SecretException for the first file that is not SOPS, or with identities does not decrypt or is not a
   *     Secret the controller applies
   */
  List<Secret> secrets(List<EncryptedDocument> encrypted, List<AgeIdentity> identities, PrintWriter err)
      throws SecretException {
    if (identities != null) {
      return SecretDecryptor.decrypt(encrypted, identities, namespace).stream().map(DecryptedSecret::secret).toList();
    }
    List<Secret> masked = new ArrayList<>();
    for (EncryptedDocument document : encrypted) {
      masked.add(MaskedSecret.of(document));
    }
    if (!masked.isEmpty()) {
      err.println("notice: " + masked.size() + " encrypted Secret" + (masked.size() == 1 ? " is" : "s are")
          + " printed with " + SopsFile.ENCRYPTED + " in place of each value; --age-identity FILE decrypts them");
    }
    return masked;
  }

  /** {@link #print(List, List, PrintWriter, PrintWriter)} of a revision of Functions alone. */
  int print(List<Function> functions, PrintWriter out, PrintWriter err) {
    return print(List.of(), functions, List.of(), out, err);
  }

  /**
   * Prints {@code first} (the Secrets and ConfigMaps, as they would be applied), then the Functions, each followed by
   * its children with {@code --with-workloads}, then {@code last} (the routes); returns the exit code. Like an
   * invalid revision, a spec the controller would refuse prints nothing on stdout and every error on stderr.
   */
  int print(List<? extends HasMetadata> first, List<Function> functions, List<? extends HasMetadata> last,
      PrintWriter out, PrintWriter err) {
    List<HasMetadata> documents = new ArrayList<>(first);
    List<String> refused = new ArrayList<>();
    BuildSettings builds = buildSettings();
    for (Function function : functions) {
      documents.add(function);
      if (!withWorkloads) {
        continue;
      }
      Function live = FunctionChildren.asApplied(function, namespace);
      try {
        Optional<FunctionBuildPlan> plan = live.getSpec().getSource().getGitRepository() == null
            ? Optional.of(FunctionBuildPlan.ofInline(live, builds)) : resolveGit(live, builds, err);
        FunctionChildren children = FunctionChildren.of(live, plan, builds, WorkloadSettings.defaults(),
            dependencyImages);
        documents.addAll(children.objects());
        children.notices().forEach(notice -> err.println("notice: " + notice));
        if (children.sourceDependent()) {
          err.println("notice: so only the " + children.objects().stream().map(HasMetadata::getKind)
              .collect(Collectors.joining(" and ")) + " of Function " + describe(live) + " "
              + (children.objects().size() == 1 ? "is" : "are") + " printed");
        }
      } catch (BuildContextTooLargeException e) {
        refused.add(e.getMessage());
      }
    }
    if (!refused.isEmpty()) {
      err.println("the controller would refuse these Functions with " + ConditionReason.INVALID_FUNCTION_SPEC
          + "; nothing printed:");
      refused.forEach(err::println);
      return INVALID;
    }
    documents.addAll(last);
    out.print(format(documents));
    out.flush();
    return 0;
  }

  /**
   * Resolves a Git-sourced Function's {@code reference} and reads its {@code baseDir}, as the controller would at
   * this moment; empty, with a notice saying why, when that cannot be done here.
   */
  private Optional<FunctionBuildPlan> resolveGit(Function fn, BuildSettings builds, PrintWriter err) {
    GitRepositorySource git = fn.getSpec().getSource().getGitRepository();
    if (!resolveGitSources) {
      return Optional.empty();
    }
    if (offline) {
      err.println("notice: Function " + describe(fn) + " has a Git source, which --offline does not fetch");
      return Optional.empty();
    }
    if (git.getAuth() != null) {
      err.println("notice: Function " + describe(fn) + " reads " + git.getUrl() + " with the Secret "
          + git.getAuth().getSecretName() + ", which render does not have");
      return Optional.empty();
    }
    try {
      if (functionMirrors == null) {
        functionMirrors = new MirrorCache(SourceSettings.defaults(cacheDir()));
      }
      GitBaseDir read = GitBaseDir.resolve(fn, functionMirrors, new GitCredentials.None(), builds);
      err.println("notice: Function " + describe(fn) + " resolved " + git.getUrl() + " " + read.revision());
      return Optional.of(read.plan());
    } catch (SourceException | IllegalArgumentException e) {
      err.println("notice: Function " + describe(fn) + ": cannot resolve its Git source: " + e.getMessage());
      return Optional.empty();
    } catch (BuildContextTooLargeException e) {
      err.println("notice: Function " + describe(fn) + ": " + e.getMessage());
      return Optional.empty();
    }
  }

  /**
   * {@code ask}, except that once a base image's registry and the dependency registry failed together, the next
   * Functions with the same pair get that failure without asking: with no network, a repository of many Functions
   * would otherwise wait {@link #REGISTRY_DEADLINE} for each.
   */
  static FunctionChildren.DependencyImages askingEachRegistryPairOnceAfterAFailure(
      FunctionChildren.DependencyImages ask) {
    Map<String, String> failed = new HashMap<>();
    return request -> {
      String pair = request.base().registry() + " " + request.dependencyRepository().registry();
      String earlier = failed.get(pair);
      if (earlier != null) {
        throw new RegistryFailure(earlier + " (for an earlier Function; not asked again)", null);
      }
      try {
        return ask.find(request);
      } catch (RegistryFailure e) {
        failed.put(pair, e.getMessage());
        throw e;
      }
    };
  }

  /**
   * Reads registries as {@code docker}, {@code crane} and {@code skopeo} do: with the credentials of
   * {@code $DOCKER_CONFIG/config.json} or {@code ~/.docker/config.json} when there is one, else anonymously.
   */
  private RegistryAccess registryAccess() throws IOException {
    String dockerConfig = System.getenv("DOCKER_CONFIG");
    Path config = dockerConfig != null && !dockerConfig.isBlank() ? Path.of(dockerConfig, "config.json")
        : Path.of(System.getProperty("user.home"), ".docker", "config.json");
    if (!Files.isRegularFile(config)) {
      return RegistryAccess.anonymous(Set.copyOf(insecureRegistries));
    }
    try {
      return RegistryAccess.ofDockerConfig(Files.readString(config), Set.copyOf(insecureRegistries));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(config + ": " + e.getMessage());
    }
  }

  /** For tests that hand Functions to {@link #print} directly: resolve Git sources with mirrors in {@code dir}. */
  RenderCommand resolvingGitSources(Path mirrors) {
    resolveGitSources = true;
    withWorkloads = true;
    cacheDir = mirrors;
    return this;
  }

  private static String describe(Function function) {
    return function.getMetadata().getNamespace() + "/" + function.getMetadata().getName();
  }

  private Manifest render() throws IOException, SourceException, InvalidManifestException {
    ManifestReader reader = new ManifestReader(ManifestOptions.defaults());
    Path folder = Path.of(source);
    if (!source.contains(":") && Files.isDirectory(folder)) {
      if (ref != null) {
        throw new IllegalArgumentException("--ref applies to a Git URL, and " + source + " is a folder");
      }
      Manifest manifest = reader.read(new FolderTree(folder), path, ignore);
      RelativeSources.resolveAll(manifest.functions(), EnclosingRepository.of(folder));
      return manifest;
    }
    if (!source.contains(":")) {
      throw new IllegalArgumentException("it is neither a folder nor a Git URL");
    }
    try (MirrorCache cache = new MirrorCache(SourceSettings.defaults(cacheDir()))) {
      // Credentials are out of scope for render: public repositories and local ones (file://) only.
      RepositoryUrl url = RepositoryUrl.parse(source);
      Manifest manifest = reader.read(cache.read(url, new GitCredentials.None(),
          RefSelector.fromKymaReference(ref == null ? "main" : ref)), path, ignore);
      RelativeSources.resolveAll(manifest.functions(), RelativeSources.Base.of(url.fetchUrl(), null, null));
      return manifest;
    }
  }

  private Path cacheDir() {
    return cacheDir != null ? cacheDir : CacheHome.of("mirrors");
  }

  private String format(List<HasMetadata> documents) {
    KubernetesSerialization serialization = new KubernetesSerialization();
    if (output == Format.json) {
      KubernetesList list = new KubernetesList();
      list.setItems(documents);
      return serialization.asJson(list) + "\n";
    }
    StringBuilder stream = new StringBuilder();
    for (HasMetadata document : documents) {
      String yaml = serialization.asYaml(document);
      stream.append(yaml.startsWith("---") ? "" : "---\n").append(yaml);
    }
    return stream.toString();
  }
}
