package io.gitfn.install;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.gitfn.testbed.InstallTools;
import io.gitfn.testbed.TestBedBinaries;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/** gitfn's install as helm and kustomize render it, parsed into typed objects. */
final class Manifests {

  static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();
  static final Path CHART = TestBedBinaries.projectDir().resolve("charts/gitfn");
  static final Path KUSTOMIZE_DEFAULT = TestBedBinaries.projectDir().resolve("config/default");

  private static InstallTools tools;

  private Manifests() {
  }

  private static synchronized InstallTools tools() {
    if (tools == null) {
      tools = InstallTools.locate();
    }
    return tools;
  }

  /** Runs helm with these arguments in the project folder; its output, or an error with its stderr. */
  static String helm(String... args) {
    List<String> command = new ArrayList<>(List.of(tools().helm().toString()));
    command.addAll(List.of(args));
    return run(command);
  }

  /** {@code helm template RELEASE charts/gitfn -n NAMESPACE ARGS...} */
  static List<HasMetadata> helmTemplate(String release, String namespace, String... args) {
    List<String> all = new ArrayList<>(List.of("template", release, CHART.toString(), "--namespace", namespace));
    all.addAll(List.of(args));
    return parse(helm(all.toArray(String[]::new)));
  }

  /** {@code kustomize build config/default} */
  static List<HasMetadata> kustomizeDefault() {
    return parse(run(List.of(tools().kustomize().toString(), "build", KUSTOMIZE_DEFAULT.toString())));
  }

  /** A values file for helm's {@code -f}. */
  static Path valuesFile(String yaml) {
    try {
      Path file = Files.createTempFile("gitfn-values-", ".yaml");
      Files.writeString(file, yaml);
      file.toFile().deleteOnExit();
      return file;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Every YAML document of a multi-document stream that holds an object. */
  static List<HasMetadata> parse(String yaml) {
    return Stream.of(yaml.split("(?m)^---\\s*$"))
        .filter(doc -> doc.lines().anyMatch(line -> !line.isBlank() && !line.stripLeading().startsWith("#")))
        .map(doc -> (HasMetadata) SERIALIZATION.unmarshal(doc))
        .toList();
  }

  static <T extends HasMetadata> T only(List<HasMetadata> objects, Class<T> type) {
    List<T> found = all(objects, type);
    if (found.size() != 1) {
      throw new AssertionError("expected one " + type.getSimpleName() + ", found " + found.size());
    }
    return found.get(0);
  }

  static <T extends HasMetadata> List<T> all(List<HasMetadata> objects, Class<T> type) {
    return objects.stream().filter(type::isInstance).map(type::cast).toList();
  }

  static Optional<HasMetadata> find(List<HasMetadata> objects, String kind, String name) {
    return objects.stream()
        .filter(o -> o.getKind().equals(kind) && o.getMetadata().getName().equals(name)).findFirst();
  }

  private static String run(List<String> command) {
    try {
      Path err = Files.createTempFile("gitfn-tool-", ".err");
      try {
        Process process = new ProcessBuilder(command).directory(TestBedBinaries.projectDir().toFile())
            .redirectError(err.toFile()).start();
        process.getOutputStream().close();
        byte[] out = process.getInputStream().readAllBytes();
        if (!process.waitFor(120, TimeUnit.SECONDS)) {
          process.destroyForcibly();
          throw new AssertionError("timed out: " + String.join(" ", command));
        }
        if (process.exitValue() != 0) {
          throw new ToolFailed(String.join(" ", command), process.exitValue(), Files.readString(err));
        }
        return new String(out, StandardCharsets.UTF_8);
      } finally {
        Files.deleteIfExists(err);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** helm or kustomize exited non-zero; the message has its stderr. */
  static final class ToolFailed extends AssertionError {
    final String stderr;

    ToolFailed(String command, int exit, String stderr) {
      super(command + " exited with " + exit + ":\n" + stderr);
      this.stderr = stderr;
    }
  }
}
