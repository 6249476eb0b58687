package io.gitfn.build;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.gitfn.api.function.Function;
import io.gitfn.api.function.FunctionRuntime;
import io.gitfn.api.function.TestFunction;
import io.gitfn.testbed.KwokBuildStages;
import io.gitfn.testbed.NodeImages;
import io.gitfn.testbed.packages.PackageMirrors;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Builds Functions with the real buildah on this host, from the build Job that {@link BuildJobSpec} makes: the
 * context is laid out as the Job mounts it ({@link JobWorkspace}), and the container's own command (the shell
 * script that builds, then pushes) runs with the container's own args and env: {@code --isolation=chroot} and vfs
 * storage as in the Pod, uid 0 with only the capabilities the container's securityContext adds, and no privilege
 * escalation ({@code setpriv}).
 *
 * <p>What differs from the Pod: the container's paths are folders under {@code target/}; a {@code buildah} first
 * on the PATH puts buildah's storage under {@code target/} and pushes into an OCI layout there, as this machine
 * has no registry; the base image is an OCI archive of {@code scripts/build-node-images.py}
 * ({@code oci-archive:}), not a registry's; and the process runs in this host's namespaces with no seccomp
 * filter, which is what the Job asks of a node whose default is Unconfined.
 *
 * <p>No traffic leaves this machine: the base images are files, and npm and pip install gitfn's runtime packages
 * and the Function's dependency from {@link PackageMirrors} on loopback, which the package-registry Secret's
 * {@code .npmrc} or {@code pip.conf} names, as a user's would. The mirrors' request log shows they were used.
 *
 * <p>It then reads the pushed image: its config (entrypoint, user 1000, env, working directory), its layers (the
 * base image's first, then the handler, gitfn's runtime and the installed packages), and that no layer the build
 * added holds the package-registry config. Running the image needs a container runtime, which this test does not
 * have.
 *
 * <p>Needs buildah (Debian's package: {@code apt-get install buildah}), setpriv (util-linux) and root, as the
 * build Pod has.
 */
class BuildahBuildIT {

  private static final Path TARGET = Path.of(System.getProperty("gitfn.project.dir", ".")).resolve("target");
  private static final ObjectMapper JSON = new ObjectMapper();

  private static Path buildah;
  private static NodeImages images;
  private static PackageMirrors mirrors;

  @BeforeAll
  static void start() throws Exception {
    buildah = onPath("buildah");
    images = NodeImages.build();
    mirrors = PackageMirrors.start(images.packages(), InetAddress.getLoopbackAddress());
  }

  @AfterAll
  static void stop() {
    if (mirrors != null) {
      mirrors.close();
    }
  }

  @Test
  void aNodeFunctionBuildsIntoAnImageWithItsHandlerTheRuntimeAndTheirPackages() throws Exception {
    String code = "const ms = require('ms');\nmodule.exports = { main: () => ({ twoDays: ms('2 days') }) };\n";
    Function fn = TestFunction.inline().named("hello").runtime(FunctionRuntime.NODEJS22).code(code)
        .dependencies("{\"name\": \"hello\", \"version\": \"1.0.0\", \"dependencies\": {\"ms\": \"2.1.3\"}}")
        .build();

    Built built = build(fn, "nodejs22", Map.of(".npmrc", mirrors.npmrc()));

    assertThat(built.exitCode).as(built.log).isZero();
    JsonNode config = built.config().path("config");
    assertThat(strings(config.path("Entrypoint"))).containsExactly("node", "/gitfn/runtime/server.mjs");
    assertThat(config.path("Cmd").isMissingNode() || config.path("Cmd").isNull()).isTrue();
    assertThat(config.path("User").asText()).isEqualTo("1000");
    assertThat(config.path("WorkingDir").asText()).isEqualTo("/gitfn/function");
    assertThat(strings(config.path("Env"))).contains("FUNC_RUNTIME=nodejs22", "FUNC_HANDLER=main",
        "MOD_NAME=handler", "FUNC_PORT=8080", "HANDLER_PATH=/gitfn/function/handler.js", "NODE_VERSION=22.20.0")
        .anyMatch(e -> e.startsWith("PATH=") && e.contains("/usr/local/bin"));
    assertThat(built.diffIds()).startsWith(baseDiffIds("nodejs22").toArray(String[]::new))
        .hasSizeGreaterThan(baseDiffIds("nodejs22").size());
    assertThat(built.file("gitfn/function/handler.js")).isEqualTo(code);
    assertThat(built.files()).contains("gitfn/runtime/server.mjs", "gitfn/runtime/lib/app.mjs",
        "gitfn/runtime/node_modules/express/package.json", "gitfn/function/node_modules/ms/package.json",
        "gitfn/function/package.json");
    // npm's own package in the base image has an .npmrc; the layers the build added have none.
    assertThat(built.filesAbove(baseDiffIds("nodejs22").size()))
        .noneMatch(f -> f.contains("registry-config") || f.endsWith(".npmrc"));
    assertThat(mirrors.requests()).contains("GET /npm/express", "GET /npm/ms", "GET /npm/ms/-/ms-2.1.3.tgz");
  }

  @Test
  void aPythonFunctionBuildsIntoAnImageWithItsHandlerTheRuntimeAndTheirPackages() throws Exception {
    String code = "import six\n\ndef main(event, context):\n    return six.ensure_text(b'ok')\n";
    Function fn = TestFunction.inline().named("hello").runtime(FunctionRuntime.PYTHON312).code(code)
        .dependencies("six==1.17.0\n").build();

    Built built = build(fn, "python312", Map.of("pip.conf", mirrors.pipConf()));

    assertThat(built.exitCode).as(built.log).isZero();
    JsonNode config = built.config().path("config");
    assertThat(strings(config.path("Entrypoint"))).containsExactly("python3", "/gitfn/runtime/server.py");
    assertThat(config.path("User").asText()).isEqualTo("1000");
    assertThat(config.path("WorkingDir").asText()).isEqualTo("/gitfn/function");
    assertThat(strings(config.path("Env"))).contains("FUNC_RUNTIME=python312", "FUNCTION_PATH=/gitfn/function",
        "PYTHONPATH=/gitfn/runtime/packages:/gitfn/function/packages", "PYTHONUNBUFFERED=TRUE");
    assertThat(built.diffIds()).startsWith(baseDiffIds("python312").toArray(String[]::new));
    assertThat(built.file("gitfn/function/handler.py")).isEqualTo(code);
    assertThat(built.files()).contains("gitfn/runtime/server.py", "gitfn/runtime/gitfn_runtime/app.py",
        "gitfn/runtime/packages/bottle.py", "gitfn/runtime/packages/cheroot/__init__.py",
        "gitfn/function/packages/six.py");
    assertThat(built.filesAbove(baseDiffIds("python312").size()))
        .noneMatch(f -> f.contains("registry-config") || f.endsWith("pip.conf"));
    assertThat(mirrors.requests()).contains("GET /pypi/simple/bottle/", "GET /pypi/simple/six/");
  }

  @Test
  void aBuildThatFailsExitsWithItsErrorAndPushesNothing() throws Exception {
    Function fn = TestFunction.inline().named("broken").runtime(FunctionRuntime.NODEJS22)
        .runtimeImageOverride("oci-archive:" + TARGET.resolve("buildah-it/no-such-image.tar")).build();

    Built built = build(fn, null, Map.of(".npmrc", mirrors.npmrc()));

    assertThat(built.exitCode).isNotZero();
    assertThat(built.log).contains("no-such-image.tar").contains("Error: ");
    assertThat(built.pushed.resolve("index.json")).doesNotExist();
  }

  private record Built(int exitCode, String log, Path pushed) {

    JsonNode manifest() throws IOException {
      JsonNode index = JSON.readTree(pushed.resolve("index.json").toFile());
      assertThat(index.path("manifests")).hasSize(1);
      return JSON.readTree(blob(index.path("manifests").get(0).path("digest").asText()).toFile());
    }

    JsonNode config() throws IOException {
      return JSON.readTree(blob(manifest().path("config").path("digest").asText()).toFile());
    }

    List<String> diffIds() throws IOException {
      return strings(config().path("rootfs").path("diff_ids"));
    }

    List<Path> layers() throws IOException {
      List<Path> layers = new ArrayList<>();
      for (JsonNode layer : manifest().path("layers")) {
        layers.add(blob(layer.path("digest").asText()));
      }
      return layers;
    }

    /** Every file and folder of every layer, without a leading {@code ./}. */
    List<String> files() throws Exception {
      return filesAbove(0);
    }

    /** The files and folders of the layers above the first {@code skipped}: those the build added. */
    List<String> filesAbove(int skipped) throws Exception {
      List<String> files = new ArrayList<>();
      for (Path layer : layers().subList(skipped, layers().size())) {
        run(List.of("tar", "-tf", layer.toString())).lines().map(f -> f.replaceFirst("^\\./", "")).forEach(files::add);
      }
      return files;
    }

    /** A file's content in the last layer that has it. */
    String file(String path) throws Exception {
      String found = null;
      for (Path layer : layers()) {
        List<String> entries = run(List.of("tar", "-tf", layer.toString())).lines().toList();
        for (String entry : entries) {
          if (entry.replaceFirst("^\\./", "").equals(path)) {
            found = run(List.of("tar", "-xOf", layer.toString(), entry));
          }
        }
      }
      assertThat(found).as(path + " in a layer").isNotNull();
      return found;
    }

    private Path blob(String digest) {
      return pushed.resolve("blobs").resolve(digest.replace(':', '/'));
    }
  }

  /**
   * Makes the Function's ConfigMap and Job, writes the context where the Job mounts it, and runs the container's
   * command with its args and env, the container's paths moved under {@code target/buildah-it/<name>}.
   *
   * @param base the node image the Function builds on, or null to keep the Function's own runtimeImageOverride
   */
  private Built build(Function fn, String base, Map<String, String> packageRegistry) throws Exception {
    BuildSettings settings = KwokBuildStages.jobBuilds().withPackageRegistrySecret("package-registry");
    if (base != null) {
      settings = settings.withBaseImage(fn.getSpec().getRuntime(), "oci-archive:" + images.archive(base));
    }
    assertThat(settings.builder().tool()).isEqualTo(ImageBuilder.Tool.BUILDAH);
    ContentKey key = ContentKey.ofInline(fn, settings);
    ConfigMap configMap = ContextConfigMapSpec.forFunction(fn, key, BuildContext.ofInline(fn, settings));
    Job job = BuildJobSpec.forFunction(fn, key, configMap.getMetadata().getName(), settings);
    Container container = job.getSpec().getTemplate().getSpec().getContainers().get(0);

    Path scratch = TARGET.resolve("buildah-it").resolve(fn.getMetadata().getName() + "-" + fn.getSpec().getRuntime().value());
    delete(scratch);
    Path workspace = Files.createDirectories(scratch.resolve("workspace"));
    JobWorkspace.materialise(job, configMap, packageRegistry, workspace);

    // The container's paths, each at a folder of this host: the workspace and the push credentials' folder.
    Map<String, Path> paths = new LinkedHashMap<>();
    paths.put(BuildJobSpec.WORKSPACE, workspace);
    for (VolumeMount mount : container.getVolumeMounts()) {
      if (mount.getName().equals("registry-credentials")) {
        Path credentials = Files.createDirectories(scratch.resolve("registry-credentials"));
        Files.writeString(credentials.resolve("config.json"), "{\"auths\": {}}\n"); // the Secret's config.json
        paths.put(mount.getMountPath(), credentials);
      }
    }
    Path pushed = scratch.resolve("pushed");
    Path bin = Files.createDirectories(scratch.resolve("bin"));
    writeBuildah(bin.resolve("buildah"), scratch.resolve("storage"), pushed);

    // As the container: uid 0 with only the capabilities its securityContext adds, and no privilege escalation.
    List<String> command = new ArrayList<>(List.of("setpriv", "--no-new-privs", "--inh-caps=-all",
        "--bounding-set=-all," + String.join(",", container.getSecurityContext().getCapabilities().getAdd().stream()
            .map(c -> "+" + c.toLowerCase(java.util.Locale.ROOT)).toList())));
    assertThat(container.getSecurityContext().getAllowPrivilegeEscalation()).isFalse();
    command.addAll(container.getCommand());
    container.getArgs().forEach(arg -> command.add(moved(arg, paths)));
    Map<String, String> env = new LinkedHashMap<>();
    env.put("PATH", bin + ":" + System.getenv("PATH"));
    env.put("HOME", System.getProperty("user.home"));
    env.put("TMPDIR", Files.createDirectories(scratch.resolve("tmp")).toString());
    for (EnvVar variable : container.getEnv()) {
      env.put(variable.getName(), moved(variable.getValue(), paths));
    }
    Path log = scratch.resolve("build.log");
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
    builder.environment().clear();
    builder.environment().putAll(env);
    int exit = builder.start().waitFor();
    return new Built(exit, Files.readString(log), pushed);
  }

  /**
   * The test's {@code buildah}: the host's, with its storage under target/ instead of the Pod's emptyDir, and the
   * push (to the image name the script gives, with its --tls-verify) into an OCI layout instead of the registry.
   */
  private static void writeBuildah(Path wrapper, Path storage, Path pushed) throws IOException {
    String store = "--root=" + storage.resolve("root") + " --runroot=" + storage.resolve("run");
    Files.writeString(wrapper, "#!/bin/sh\n"
        + "if [ \"$1\" = push ]; then\n"
        + "  shift\n"
        + "  exec " + buildah + " " + store + " push \"$@\" oci:" + pushed + "\n"
        + "fi\n"
        + "exec " + buildah + " " + store + " \"$@\"\n");
    Files.setPosixFilePermissions(wrapper, PosixFilePermissions.fromString("rwxr-xr-x"));
  }

  private static String moved(String value, Map<String, Path> paths) {
    for (Map.Entry<String, Path> path : paths.entrySet()) {
      if (value.equals(path.getKey()) || value.startsWith(path.getKey() + "/")) {
        return path.getValue() + value.substring(path.getKey().length());
      }
      if (value.contains("=" + path.getKey() + "/")) {
        return value.replace("=" + path.getKey() + "/", "=" + path.getValue() + "/");
      }
    }
    return value;
  }

  /** The diff_ids of a node image, from its OCI archive. */
  private static List<String> baseDiffIds(String name) throws Exception {
    Path archive = images.archive(name);
    JsonNode index = JSON.readTree(run(List.of("tar", "-xOf", archive.toString(), "index.json")));
    JsonNode manifest = JSON.readTree(run(List.of("tar", "-xOf", archive.toString(),
        "blobs/sha256/" + index.path("manifests").get(0).path("digest").asText().substring(7))));
    JsonNode config = JSON.readTree(run(List.of("tar", "-xOf", archive.toString(),
        "blobs/sha256/" + manifest.path("config").path("digest").asText().substring(7))));
    return strings(config.path("rootfs").path("diff_ids"));
  }

  private static List<String> strings(JsonNode array) {
    List<String> values = new ArrayList<>();
    array.forEach(v -> values.add(v.asText()));
    return values;
  }

  private static String run(List<String> command) throws Exception {
    Process process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
    String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor()).as(String.join(" ", command)).isZero();
    return out;
  }

  private static Path onPath(String program) {
    for (String dir : System.getenv("PATH").split(":")) {
      Path candidate = Path.of(dir, program);
      if (Files.isExecutable(candidate)) {
        return candidate;
      }
    }
    throw new IllegalStateException(program + " is not on the PATH: install Debian's package"
        + " (`apt-get install buildah`; bash .ci/run does) and run this test as root, as the build Pod runs");
  }

  private static void delete(Path folder) throws IOException {
    if (!Files.exists(folder)) {
      return;
    }
    try (Stream<Path> walk = Files.walk(folder)) {
      for (Path path : walk.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(path);
      }
    }
  }
}
