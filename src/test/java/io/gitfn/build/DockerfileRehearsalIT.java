package io.gitfn.build;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.gitfn.api.function.Function;
import io.gitfn.api.function.FunctionRuntime;
import io.gitfn.api.function.TestFunction;
import io.gitfn.testbed.KwokBuildStages;
import io.gitfn.testbed.NodeImages;
import io.gitfn.testbed.packages.PackageMirrors;
import io.gitfn.workload.DesiredDeployment;
import io.gitfn.workload.WorkloadSettings;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Builds a Kyma-style Function's image the way the build Job would, without a container engine: the context
 * ConfigMap and Job come from the controller's builders, the context is laid out exactly as the Job's volume
 * {@code items} and mounts show it to the builder, and {@link DockerfileRehearsal} runs the Dockerfile with the host's
 * {@code npm} and {@code pip}. Then the final stage's command starts with the image's ENV and the Deployment's env,
 * and the Function answers over HTTP with its dependency imported from the image's own folders.
 *
 * <p>It proves the context is complete, the install commands work, and the Deployment's env fits the runtime. It
 * does not run a builder nor pull the base images ({@code BuildahBuildIT} runs buildah). It needs node, npm and
 * python3. Packages come from {@link PackageMirrors} on loopback, through the package-registry Secret as a user's
 * would, with empty caches: nothing is fetched from anywhere but this machine.
 */
class DockerfileRehearsalIT {

  private static final Path TARGET = Path.of(System.getProperty("gitfn.project.dir", ".")).resolve("target");
  private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
  private static final ObjectMapper JSON = new ObjectMapper();
  // What the host needs to run its tools and reach the registries, and nothing that could find packages for them.
  // No proxies and no package sources: the mirrors on loopback are the only place packages come from.
  private static final Set<String> HOST_ENV = Set.of("PATH", "HOME", "LANG", "PYENV_ROOT");
  private static final Pattern K8S_REFERENCE = Pattern.compile("\\$\\(([A-Za-z_][A-Za-z0-9_]*)\\)");

  private static PackageMirrors mirrors;
  private Process server;

  @BeforeAll
  static void startMirrors() {
    mirrors = PackageMirrors.start(NodeImages.build().packages(), InetAddress.getLoopbackAddress());
  }

  @AfterAll
  static void stopMirrors() {
    mirrors.close();
  }

  @AfterEach
  void stopServer() throws InterruptedException {
    if (server != null && server.isAlive()) {
      server.destroy();
      if (!server.waitFor(15, java.util.concurrent.TimeUnit.SECONDS)) {
        server.destroyForcibly();
      }
    }
  }

  @Test
  void aNodeFunctionWithADependencyRunsFromItsImage() throws Exception {
    Function fn = TestFunction.inline().named("hello").runtime(FunctionRuntime.NODEJS22)
        .code("""
            const ms = require('ms');
            module.exports = {
              main: async function (event, context) {
                return { twoDays: ms('2 days'), resolved: require.resolve('ms'), name: context['function-name'],
                  namespace: context.namespace, runtime: context.runtime, got: event.data };
              }
            };
            """)
        .dependencies("{\"name\": \"hello\", \"version\": \"1.0.0\", \"dependencies\": {\"ms\": \"2.1.3\"}}")
        .build();

    Built built = build(fn, KwokBuildStages.jobBuilds().withPackageRegistrySecret("package-registry"),
        Map.of(".npmrc", mirrors.npmrc()));
    JsonNode answer = call(built, "{\"greeting\": \"hi\"}");

    assertThat(mirrors.requests()).as("what the mirrors were asked")
        .anyMatch(r -> r.contains("/npm/ms")).anyMatch(r -> r.contains("/npm/express"));
    assertThat(answer.path("twoDays").asLong()).isEqualTo(172_800_000L);
    assertThat(answer.path("resolved").asText())
        .startsWith(built.image.root().resolve("gitfn/function/node_modules/ms").toString());
    assertThat(answer.path("name").asText()).isEqualTo("hello");
    assertThat(answer.path("namespace").asText()).isEqualTo("shop");
    assertThat(answer.path("runtime").asText()).isEqualTo("nodejs22");
    assertThat(answer.path("got").path("greeting").asText()).isEqualTo("hi");
    assertThat(built.image.root().resolve("gitfn/runtime/node_modules/express/package.json")).isRegularFile();
  }

  @Test
  void aPythonFunctionWithADependencyRunsFromItsImageAndThePipConfStaysOut() throws Exception {
    Function fn = TestFunction.inline().named("hello").runtime(FunctionRuntime.PYTHON312)
        .code("""
            import six

            def main(event, context):
                return {"text": six.ensure_text(b"caf\\xc3\\xa9"), "resolved": six.__file__,
                        "name": context["function-name"], "namespace": context["namespace"],
                        "runtime": context["runtime"], "got": event["data"]}
            """)
        .dependencies("six==1.17.0\n")
        .build();
    // The build reads the mirrors' pip.conf through PIP_CONFIG_FILE, and the image must not contain it.
    BuildSettings settings = KwokBuildStages.jobBuilds().withPackageRegistrySecret("package-registry");

    Built built = build(fn, settings, Map.of("pip.conf", mirrors.pipConf()));
    JsonNode answer = call(built, "{\"greeting\": \"hi\"}");

    assertThat(mirrors.requests()).as("what the mirrors were asked")
        .anyMatch(r -> r.contains("/pypi/simple/six/")).anyMatch(r -> r.contains("/pypi/simple/bottle/"));

    assertThat(answer.path("text").asText()).isEqualTo("café");
    assertThat(answer.path("resolved").asText())
        .startsWith(built.image.root().resolve("gitfn/function/packages/six.py").toString());
    assertThat(answer.path("name").asText()).isEqualTo("hello");
    assertThat(answer.path("namespace").asText()).isEqualTo("shop");
    assertThat(answer.path("runtime").asText()).isEqualTo("python312");
    assertThat(answer.path("got").path("greeting").asText()).isEqualTo("hi");
    assertThat(built.image.root().resolve("gitfn/runtime/packages/bottle.py")).isRegularFile();
    try (Stream<Path> files = Files.walk(built.image.root())) {
      assertThat(files.map(Path::toString)).noneMatch(p -> p.endsWith("pip.conf") || p.contains("registry-config"));
    }
  }

  private record Built(Function fn, DockerfileRehearsal.Image image, Deployment deployment) {}

  /** The builders' ConfigMap and Job, the context as the Job mounts it, and the Dockerfile run on the host. */
  private Built build(Function fn, BuildSettings settings, Map<String, String> packageRegistrySecret)
      throws Exception {
    ContentKey key = ContentKey.ofInline(fn, settings);
    ConfigMap configMap = ContextConfigMapSpec.forFunction(fn, key, BuildContext.ofInline(fn, settings));
    Job job = BuildJobSpec.forFunction(fn, key, configMap.getMetadata().getName(), settings);
    Deployment deployment = DesiredDeployment.forFunction(fn, BuildJobSpec.image(fn, key, settings),
        WorkloadSettings.defaults());

    Path scratch = TARGET.resolve("rehearsal").resolve(fn.getSpec().getRuntime().value());
    delete(scratch);
    Path workspace = Files.createDirectories(scratch.resolve("workspace"));
    JobWorkspace.materialise(job, configMap, packageRegistrySecret, workspace);

    List<String> args = job.getSpec().getTemplate().getSpec().getContainers().get(0).getArgs();
    assertThat(args).contains("--file=" + BuildJobSpec.WORKSPACE + "/Dockerfile").endsWith(BuildJobSpec.WORKSPACE);
    Map<String, String> buildArgs = new LinkedHashMap<>();
    args.stream().filter(a -> a.startsWith("--build-arg=")).map(a -> a.substring("--build-arg=".length()).split("=", 2))
        .forEach(kv -> buildArgs.put(kv[0], kv[1]));

    DockerfileRehearsal rehearsal = new DockerfileRehearsal(workspace, Files.createDirectories(scratch.resolve("image")),
        buildArgs, runEnv(Files.createDirectories(scratch.resolve("cache"))));
    DockerfileRehearsal.Image image = rehearsal.build(Files.readString(workspace.resolve("Dockerfile")));

    assertThat(image.baseImage()).isEqualTo(ContentKey.baseImage(fn, settings));
    assertThat(image.user()).isEqualTo("1000");
    assertReadableByAnyUser(image.root()); // the Pod runs as 10001, which owns none of the image's files
    return new Built(fn, image, deployment);
  }

  /** The final stage's command, with the image's ENV and then the Deployment's env, as the kubelet would. */
  private JsonNode call(Built built, String body) throws Exception {
    Path root = built.image.root();
    Container container = built.deployment.getSpec().getTemplate().getSpec().getContainers().get(0);
    assertThat(container.getCommand()).as("the Deployment runs the image's command").isNullOrEmpty();
    assertThat(container.getArgs()).isNullOrEmpty();

    Map<String, String> env = new LinkedHashMap<>();
    for (String name : List.of("PATH", "HOME", "LANG", "PYENV_ROOT")) {
      if (System.getenv(name) != null) {
        env.put(name, System.getenv(name));
      }
    }
    built.image.env().forEach((name, value) -> env.put(name, DockerfileRehearsal.rerootValue(root, value)));
    Map<String, String> containerEnv = new LinkedHashMap<>();
    for (EnvVar variable : container.getEnv()) {
      assertThat(variable.getValueFrom()).isNull();
      containerEnv.put(variable.getName(), expand(variable.getValue(), containerEnv));
    }
    containerEnv.forEach((name, value) -> env.put(name, DockerfileRehearsal.rerootValue(root, value)));
    // The image listens where the Service sends (80 → 8080); here the port may be taken, so it moves.
    assertThat(env.get("FUNC_PORT")).isEqualTo(Integer.toString(DesiredDeployment.PORT))
        .isEqualTo(container.getPorts().get(0).getContainerPort().toString());
    int port = freePort();
    env.put("FUNC_PORT", Integer.toString(port));
    env.put("FUNC_BIND", "127.0.0.1");

    List<String> command = new ArrayList<>();
    for (String word : built.image.command()) {
      command.add(word.startsWith("/") ? DockerfileRehearsal.reroot(root, word).toString() : word);
    }
    Path log = root.getParent().resolve("server.log");
    ProcessBuilder builder = new ProcessBuilder(command).directory(
            DockerfileRehearsal.reroot(root, built.image.workdir()).toFile())
        .redirectErrorStream(true).redirectOutput(log.toFile());
    builder.environment().clear();
    builder.environment().putAll(env);
    server = builder.start();

    URI base = URI.create("http://127.0.0.1:" + port);
    await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100)).untilAsserted(() -> {
      assertThat(server.isAlive()).as("the server is running:\n" + Files.readString(log)).isTrue();
      assertThat(status(base.resolve("/healthz"))).isEqualTo(200);
    });
    HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(base.resolve("/"))
        .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).as(response.body() + "\n" + Files.readString(log)).isEqualTo(200);
    return JSON.readTree(response.body());
  }

  /** Kubernetes' $(VAR): a variable defined earlier in the container's env; anything else stays as written. */
  private static String expand(String value, Map<String, String> earlier) {
    Matcher m = K8S_REFERENCE.matcher(value == null ? "" : value);
    StringBuilder out = new StringBuilder();
    while (m.find()) {
      String known = earlier.get(m.group(1));
      m.appendReplacement(out, Matcher.quoteReplacement(known != null ? known : m.group()));
    }
    return m.appendTail(out).toString();
  }

  private static int status(URI uri) {
    try {
      return HTTP.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(1)).build(),
          HttpResponse.BodyHandlers.discarding()).statusCode();
    } catch (IOException e) {
      return -1;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return -1;
    }
  }

  /** The host's tools with empty caches under {@code cache}, which the scratch folder's deletion empties. */
  private static Map<String, String> runEnv(Path cache) throws IOException {
    Map<String, String> env = new LinkedHashMap<>();
    System.getenv().forEach((name, value) -> {
      if (HOST_ENV.contains(name)) {
        env.put(name, value);
      }
    });
    env.put("npm_config_cache", Files.createDirectories(cache.resolve("npm")).toString());
    env.put("PIP_CACHE_DIR", Files.createDirectories(cache.resolve("pip")).toString());
    return env;
  }

  private static void assertReadableByAnyUser(Path root) throws IOException {
    try (Stream<Path> walk = Files.walk(root)) {
      assertThat(walk.filter(p -> !Files.isSymbolicLink(p)).filter(p -> {
        try {
          Set<PosixFilePermission> mode = Files.getPosixFilePermissions(p);
          return !mode.contains(PosixFilePermission.OTHERS_READ)
              || Files.isDirectory(p) && !mode.contains(PosixFilePermission.OTHERS_EXECUTE);
        } catch (IOException e) {
          throw new java.io.UncheckedIOException(e);
        }
      }).map(Path::toString)).as("files another user cannot read").isEmpty();
    }
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }

  private static void delete(Path folder) throws IOException {
    if (!Files.exists(folder)) {
      return;
    }
    try (Stream<Path> walk = Files.walk(folder)) {
      for (Path path : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.delete(path);
      }
    }
  }
}
