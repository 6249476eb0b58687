package io.gitfn.cli;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.KubernetesList;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.gitfn.api.function.Function;
import io.gitfn.manifest.InvalidManifestException;
import io.gitfn.manifest.Manifest;
import io.gitfn.manifest.ManifestError;
import io.gitfn.manifest.ManifestNotice;
import io.gitfn.manifest.ManifestOptions;
import io.gitfn.manifest.ManifestReader;
import io.gitfn.manifest.SourceTree;
import io.gitfn.source.FolderTree;
import io.gitfn.source.GitCredentials;
import io.gitfn.source.Mirror;
import io.gitfn.source.MirrorCache;
import io.gitfn.source.RefSelector;
import io.gitfn.source.RepositoryUrl;
import io.gitfn.source.Revision;
import io.gitfn.source.SourceException;
import io.gitfn.source.SourceSettings;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code gitfn render}: the Functions a folder or a Git repository declares, as gitfn would apply them. No cluster
 * is needed; an invalid revision prints every error with its file and line and exits 1.
 */
@Command(
    name = "render",
    mixinStandardHelpOptions = true,
    description = "Print the Functions that a folder or a Git repository declares, without a cluster.",
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {"0:the Functions were printed", "1:the revision is invalid; the errors are on stderr",
        "2:the folder or repository could not be read"})
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

  @Option(names = "--cache-dir", paramLabel = "DIR",
      description = "Where Git mirrors are kept. Default: $XDG_CACHE_HOME/gitfn/mirrors or ~/.cache/gitfn/mirrors.")
  Path cacheDir;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    try {
      Manifest manifest = render();
      manifest.notices().forEach(notice -> err.println("notice: " + notice));
      out.print(format(manifest.functions()));
      out.flush();
      return 0;
    } catch (InvalidManifestException e) {
      err.println("the revision is invalid; nothing would be applied:");
      e.errors().stream().map(ManifestError::toString).forEach(err::println);
      return INVALID;
    } catch (IOException | SourceException | IllegalArgumentException e) {
      err.println("cannot read " + source + ": " + e.getMessage());
      return UNREADABLE;
    } finally {
      err.flush();
    }
  }

  private Manifest render() throws IOException, SourceException, InvalidManifestException {
    ManifestReader reader = new ManifestReader(ManifestOptions.defaults());
    Path folder = Path.of(source);
    if (!source.contains(":") && Files.isDirectory(folder)) {
      if (ref != null) {
        throw new IllegalArgumentException("--ref applies to a Git URL, and " + source + " is a folder");
      }
      return reader.read(new FolderTree(folder), path, ignore);
    }
    if (!source.contains(":")) {
      throw new IllegalArgumentException("it is neither a folder nor a Git URL");
    }
    try (MirrorCache cache = new MirrorCache(SourceSettings.defaults(cacheDir()))) {
      // Credentials are out of scope for render: public repositories and local ones (file://) only.
      Mirror mirror = cache.mirror(RepositoryUrl.parse(source), new GitCredentials.None());
      Revision revision = mirror.resolve(RefSelector.fromKymaReference(ref == null ? "main" : ref));
      mirror.ensure(List.of(revision));
      SourceTree snapshot = mirror.snapshot(revision);
      return reader.read(snapshot, path, ignore);
    }
  }

  private Path cacheDir() {
    if (cacheDir != null) {
      return cacheDir;
    }
    String xdg = System.getenv("XDG_CACHE_HOME");
    Path base = xdg == null || xdg.isBlank() ? Path.of(System.getProperty("user.home"), ".cache") : Path.of(xdg);
    return base.resolve("gitfn").resolve("mirrors");
  }

  private String format(List<Function> functions) {
    KubernetesSerialization serialization = new KubernetesSerialization();
    if (output == Format.json) {
      KubernetesList list = new KubernetesList();
      list.setItems(new ArrayList<HasMetadata>(functions));
      return serialization.asJson(list) + "\n";
    }
    StringBuilder stream = new StringBuilder();
    for (Function function : functions) {
      String yaml = serialization.asYaml(function);
      stream.append(yaml.startsWith("---") ? "" : "---\n").append(yaml);
    }
    return stream.toString();
  }
}
