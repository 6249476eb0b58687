package io.gitfn.manifest;

import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.gitfn.api.function.Function;
import io.gitfn.api.function.FunctionRuntime;
import io.gitfn.api.function.FunctionSpec;
import io.gitfn.api.function.InlineSource;
import io.gitfn.api.function.Source;
import java.io.IOException;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Format 3: a folder with {@code handler.js} and {@code package.json} (Kyma's default runtime,
 * {@link FunctionRuntime#DEFAULT}, Node.js 24) or {@code handler.py} and {@code requirements.txt} (Python 3.12), and
 * no config.yaml. It becomes an inline Function named after the folder.
 */
final class PlainFolderReader {

  /** A runtime's pair of files. */
  record Layout(FunctionRuntime runtime, String handler, String dependencies) {}

  static final List<Layout> LAYOUTS = List.of(
      new Layout(FunctionRuntime.DEFAULT, "handler.js", "package.json"),
      new Layout(FunctionRuntime.PYTHON312, "handler.py", "requirements.txt"));

  /** True when {@code file} is a handler, so its folder may be a function folder. */
  static boolean isHandler(String file) {
    String name = RepoPaths.name(file);
    return LAYOUTS.stream().anyMatch(layout -> layout.handler().equals(name));
  }

  /** The Function of {@code folder}, whose files other formats did not take, or empty with an error. */
  Optional<Candidate> read(String folder, RevisionFiles files, Set<String> taken, List<ManifestError> errors)
      throws IOException {
    if (taken.contains(folder + "/")) {
      return Optional.empty();
    }
    List<Layout> present = LAYOUTS.stream()
        .filter(layout -> usable(RepoPaths.join(folder, layout.handler()), files, taken))
        .toList();
    if (present.size() > 1) {
      errors.add(new ManifestError(folder, 0, null, "holds both handler.js and handler.py; a function folder is one"
          + " Function: keep one runtime's files, or add a config.yaml that says which"));
      return Optional.empty();
    }
    if (present.isEmpty()) {
      return Optional.empty();
    }
    Layout layout = present.get(0);
    String handler = RepoPaths.join(folder, layout.handler());
    String dependencies = RepoPaths.join(folder, layout.dependencies());
    if (!usable(dependencies, files, taken)) {
      errors.add(new ManifestError(handler, 0, null, "has no " + layout.dependencies() + " next to it; add one"
          + (layout.dependencies().equals("package.json") ? " (`{}` will do)" : " (it may be empty)")
          + ", or list the folder in .gitfnignore"));
      return Optional.empty();
    }
    if (folder.isEmpty()) {
      errors.add(new ManifestError(handler, 0, null, "is at the repository root, so its Function has no folder to be"
          + " named after; move it into a folder"));
      return Optional.empty();
    }
    Function function = new Function();
    ObjectMeta metadata = new ObjectMeta();
    metadata.setName(RepoPaths.name(folder));
    function.setMetadata(metadata);
    FunctionSpec spec = new FunctionSpec();
    spec.setRuntime(layout.runtime());
    Optional<String> code = files.text(handler);
    Optional<String> packages = files.text(dependencies);
    if (code.isEmpty() || packages.isEmpty()) {
      return Optional.empty();
    }
    InlineSource inline = new InlineSource();
    inline.setSource(code.get());
    inline.setDependencies(packages.get());
    Source source = new Source();
    source.setInline(inline);
    spec.setSource(source);
    function.setSpec(spec);
    return Optional.of(new Candidate(function, new FolderOrigin(folder, handler, dependencies, null), Set.of()));
  }

  private static boolean usable(String path, RevisionFiles files, Set<String> taken) {
    return files.has(path) && !taken.contains(path);
  }
}
