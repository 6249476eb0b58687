package io.gitfn.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.gitfn.testbed.Browser;
import io.gitfn.testbed.git.BareRepository;
import io.gitfn.testbed.git.GitClient;
import io.gitfn.testbed.git.GitHttpServer;
import io.gitfn.testbed.git.GitServers;
import io.gitfn.testbed.git.WorkingCopy;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebElement;

/**
 * {@code gitfn up} end to end, with real Node.js and Python processes: pushes to a real Git server are served within
 * seconds, ten updates and a revert under load fail no request, a revert installs nothing, and broken input is
 * reported for its Function only.
 */
@ExtendWith(GitServers.class)
class LocalModeE2E {

  private static final Duration WAIT = Duration.ofSeconds(60);
  private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
  // Shared by the tests and kept between runs in target/, as a developer's cache is: runtimes install once.
  private static final Path CACHE = Path.of(System.getProperty("gitfn.project.dir", "."), "target", "up-cache");

  @Test
  void pushesAreServedAndTenUpdatesAndARevertUnderLoadFailNoRequest(GitHttpServer http, BareRepository repository,
      GitClient git) throws Exception {
    WorkingCopy copy = git.clone(http.url(repository.name()));
    copy.write("functions/hello/package.json", "{\"name\": \"hello\", \"dependencies\": {\"is-number\": \"7.0.0\"}}\n");
    writeHello(copy, 1);
    copy.write("functions/py-hello/handler.py", "def main(event, context):\n    return 'py v1'\n")
        .write("functions/py-hello/requirements.txt", "");
    copy.commit("v1");
    copy.push();
    StringWriter progress = new StringWriter();

    try (LocalMode up = LocalMode.start(settings(), new PrintWriter(progress, true))) {
      up.follow("file://" + repository.directory().toAbsolutePath(), "main", "functions");
      String hello = "http://127.0.0.1:" + up.port() + "/hello";
      await().atMost(WAIT).untilAsserted(() -> assertThat(body(hello)).as(progress.toString()).isEqualTo("v1 true"));
      await().atMost(WAIT).untilAsserted(() -> assertThat(body("http://127.0.0.1:" + up.port() + "/default/py-hello"))
          .as(progress.toString()).isEqualTo("py v1"));

      int firstVersionServed = progress.toString().length();
      Load load = Load.start(hello, 4);
      for (int version = 2; version <= 11; version++) {
        writeHello(copy, version);
        copy.commit("v" + version);
        copy.push();
        String expected = "v" + version + " true";
        await().atMost(WAIT).until(() -> expected.equals(body(hello)));
      }
      copy.git("revert", "--no-edit", "HEAD");
      copy.push();
      await().atMost(WAIT).until(() -> "v10 true".equals(body(hello)));
      Load.Result result = load.stop();

      assertThat(result.failures()).as("failed requests: " + result.errors()).isZero();
      assertThat(result.ok()).as("requests served during the rollouts").isGreaterThan(100);
      String rollouts = progress.toString().substring(firstVersionServed);
      assertThat(rollouts.lines().filter(l -> l.contains("default/hello: switched"))).hasSize(11);
      assertThat(rollouts).as("updates and the revert change only the handler: nothing is installed again")
          .doesNotContain("installed dependencies");

      // The same dashboard as the controller's, on the proxy's port: the revert's commit, and its key coming back.
      URI dashboard = URI.create("http://127.0.0.1:" + up.port() + "/_gitfn/");
      try (Browser browser = Browser.start()) {
        WebElement row = browser.open(dashboard).await("tbody tr", r -> r.getText().contains("local/up"), WAIT);
        row.findElement(By.cssSelector("th a")).sendKeys(Keys.ENTER);
        WebElement revisions = browser.await("table.history", t -> t.getText().contains("Revert"), WAIT);
        assertThat(revisions.getText()).contains(GitClient.AUTHOR_NAME).contains("Revert \"v11\"");
        browser.driver().findElement(By.cssSelector("a[href=\"/_gitfn/functions/default/hello\"]"))
            .sendKeys(Keys.ENTER);
        WebElement timeline = browser.await("figure.timeline",
            t -> !t.findElements(By.cssSelector("g.band.back")).isEmpty(), WAIT);
        assertThat(timeline.findElements(By.cssSelector("g.band"))).as("the ten versions its history keeps")
            .hasSize(10);
        assertThat(browser.driver().findElement(By.cssSelector("h1 .badge")).getText()).isEqualTo("Running");
        assertThat(browser.driver().findElements(By.cssSelector(".rollout-heading"))).as("no Deployment here")
            .isEmpty();
        browser.screenshot(Path.of("target", "dashboard", "up-function.png"), "h2.versions-heading");
      }
    }
  }

  @Test
  void aBrokenHandlerKeepsTheRunningVersionAndOtherFunctionsServe(GitHttpServer http, BareRepository repository,
      GitClient git) throws Exception {
    WorkingCopy copy = git.clone(http.url(repository.name()));
    copy.write("functions/steady/handler.js", "module.exports = { main: () => 'steady' };\n")
        .write("functions/steady/package.json", "{}\n")
        .write("functions/fragile/handler.js", "module.exports = { main: () => 'fragile v1' };\n")
        .write("functions/fragile/package.json", "{}\n")
        .commit("two");
    copy.push();
    StringWriter progress = new StringWriter();

    try (LocalMode up = LocalMode.start(settings(), new PrintWriter(progress, true))) {
      up.follow("file://" + repository.directory().toAbsolutePath(), "main", "functions");
      String fragile = "http://127.0.0.1:" + up.port() + "/fragile";
      await().atMost(WAIT).untilAsserted(() -> assertThat(body(fragile)).as(progress.toString())
          .isEqualTo("fragile v1"));

      copy.write("functions/fragile/handler.js", "module.exports = { main: () => 'oops' ;\n").commit("syntax error");
      copy.push();

      await().atMost(WAIT).untilAsserted(() -> assertThat(progress.toString())
          .contains("✗ default/fragile: kept the running version:").contains("SyntaxError"));
      assertThat(body(fragile)).isEqualTo("fragile v1");
      assertThat(body("http://127.0.0.1:" + up.port() + "/steady")).isEqualTo("steady");
    }
  }

  @Test
  void envReadFromTheFoldersConfigMapIsServedAndAnEditOfItRollsTheFunction(
      @org.junit.jupiter.api.io.TempDir Path folder) throws Exception {
    Files.writeString(folder.resolve("greeting.yaml"), """
        apiVersion: serverless.kyma-project.io/v1alpha2
        kind: Function
        metadata: {name: greeting}
        spec:
          runtime: nodejs22
          source:
            inline:
              source: "module.exports = { main: () => process.env.GREETING };"
          env:
            - name: GREETING
              valueFrom: {configMapKeyRef: {name: greeting-settings, key: greeting}}
        """);
    writeGreeting(folder, "greeting", "Hallo");
    StringWriter progress = new StringWriter();

    try (LocalMode up = LocalMode.start(settings(), new PrintWriter(progress, true))) {
      up.follow(folder.toString(), null, ".");
      String greeting = "http://127.0.0.1:" + up.port() + "/greeting";
      await().atMost(WAIT).untilAsserted(() -> assertThat(body(greeting)).as(progress.toString()).isEqualTo("Hallo"));

      writeGreeting(folder, "greeting", "Servus");
      await().atMost(WAIT).untilAsserted(() -> assertThat(body(greeting)).as(progress.toString()).isEqualTo("Servus"));

      writeGreeting(folder, "welcome", "Moin");
      await().atMost(WAIT).untilAsserted(() -> assertThat(progress.toString()).contains("✗ default/greeting: kept the"
          + " running version: env GREETING reads key greeting of ConfigMap greeting-settings (settings.yaml:1),"
          + " which has no such key in data"));
      assertThat(body(greeting)).as("as Kubernetes keeps the old Pods while a new one cannot start").isEqualTo("Servus");
      assertThat(progress.toString()).doesNotContain("notice: settings.yaml");
    }
  }

  /** A ConfigMap {@code greeting-settings} with one key; each value the test writes has another size. */
  private static void writeGreeting(Path folder, String key, String value) throws IOException {
    Files.writeString(folder.resolve("settings.yaml"), "apiVersion: v1\nkind: ConfigMap\nmetadata: {name:"
        + " greeting-settings}\ndata:\n  " + key + ": " + value + "\n");
  }

  @Test
  void killingGitfnLeavesNoFunctionProcess(@org.junit.jupiter.api.io.TempDir Path folder) throws Exception {
    Path cache = Files.createTempDirectory(CACHE.getParent(), "up-kill-");
    Files.createDirectories(folder.resolve("survivor"));
    Files.writeString(folder.resolve("survivor/handler.js"), "module.exports = { main: () => 'alive' };\n");
    Files.writeString(folder.resolve("survivor/package.json"), "{}\n");
    Path log = cache.resolve("gitfn.log");
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Process gitfn = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), "io.gitfn.cli.Main", "up",
        folder.toString(), "--port", "0", "--cache-dir", cache.toString())
        .redirectErrorStream(true).redirectOutput(log.toFile()).start();
    try {
      await().atMost(WAIT).untilAsserted(() -> assertThat(Files.readString(log)).contains("default/survivor: switched"));
      List<ProcessHandle> functions = functionProcesses(cache);
      assertThat(functions).as("the Function's node process").isNotEmpty();

      gitfn.destroyForcibly().waitFor(); // kill -9: no shutdown hook runs

      await().atMost(Duration.ofSeconds(20)).untilAsserted(() ->
          assertThat(functions).noneMatch(ProcessHandle::isAlive));
    } finally {
      gitfn.destroyForcibly();
    }
  }

  @Test
  void withoutNodeOnPathTheNodeFunctionSaysSoAndThePythonOneServes(@org.junit.jupiter.api.io.TempDir Path folder)
      throws Exception {
    Files.createDirectories(folder.resolve("js"));
    Files.writeString(folder.resolve("js/handler.js"), "module.exports = { main: () => 'js' };\n");
    Files.writeString(folder.resolve("js/package.json"), "{}\n");
    Files.createDirectories(folder.resolve("py"));
    Files.writeString(folder.resolve("py/handler.py"), "def main(event, context):\n    return 'py'\n");
    Files.writeString(folder.resolve("py/requirements.txt"), "");
    Path log = folder.resolve("gitfn.log");
    ProcessBuilder builder = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", System.getProperty("java.class.path"), "io.gitfn.cli.Main", "up", folder.toString(), "--port", "0",
        "--cache-dir", CACHE.toString())
        .redirectErrorStream(true).redirectOutput(log.toFile());
    builder.environment().put("PATH", pathWithout(Files.createTempDirectory(CACHE.getParent(), "path-without-node-"),
        List.of("node", "nodejs", "npm", "npx", "corepack")));
    Process gitfn = builder.start();
    try {
      await().atMost(WAIT).untilAsserted(() -> assertThat(Files.readString(log))
          .contains("✗ default/js: not started: node is not installed or not on PATH; nodejs24 Functions need"
              + " Node.js 24 to run locally")
          .contains("✔ default/py: switched"));
      String url = Files.readString(log).lines().filter(line -> line.contains("default/py: switched"))
          .map(line -> line.substring(line.indexOf("serving at ") + "serving at ".length()).strip())
          .findFirst().orElseThrow();
      assertThat(body(url)).isEqualTo("py");
    } finally {
      gitfn.destroy();
      gitfn.waitFor();
    }
  }

  /** A PATH of one folder that links every program of this PATH but {@code left out}. */
  private static String pathWithout(Path folder, List<String> leftOut) throws IOException {
    for (String directory : System.getenv("PATH").split(":")) {
      Path dir = Path.of(directory);
      if (!Files.isDirectory(dir)) {
        continue;
      }
      try (var programs = Files.list(dir)) {
        for (Path program : (Iterable<Path>) programs::iterator) {
          Path link = folder.resolve(program.getFileName().toString());
          if (!leftOut.contains(program.getFileName().toString()) && Files.isExecutable(program)
              && !Files.exists(link, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            Files.createSymbolicLink(link, program.toRealPath());
          }
        }
      }
    }
    return folder.toString();
  }

  private static List<ProcessHandle> functionProcesses(Path cache) {
    return ProcessHandle.allProcesses()
        .filter(p -> p.info().commandLine().map(c -> c.contains(cache.toString()) && c.contains("node")).orElse(false))
        .toList();
  }

  private static LocalSettings settings() throws IOException {
    Files.createDirectories(CACHE);
    return new LocalSettings(CACHE, "127.0.0.1", 0, Duration.ofMillis(200));
  }

  private static void writeHello(WorkingCopy copy, int version) throws IOException {
    copy.write("functions/hello/handler.js", "const isNumber = require('is-number');\n"
        + "module.exports = { main: () => 'v" + version + " ' + isNumber(" + version + ") };\n");
  }

  private static String body(String url) {
    try {
      HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(URI.create(url))
          .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
      return response.statusCode() == 200 ? response.body() : "HTTP " + response.statusCode();
    } catch (IOException e) {
      return e.toString();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return e.toString();
    }
  }

  /** Client threads that keep calling a Function and count what did not come back 200. */
  private static final class Load {
    record Result(int ok, int failures, List<String> errors) {}

    private final ExecutorService threads;
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final AtomicInteger ok = new AtomicInteger();
    private final List<String> errors = java.util.Collections.synchronizedList(new ArrayList<>());

    private Load(int clients) {
      threads = Executors.newFixedThreadPool(clients);
    }

    static Load start(String url, int clients) {
      Load load = new Load(clients);
      for (int i = 0; i < clients; i++) {
        load.threads.submit(() -> {
          while (load.running.get()) {
            String body = body(url);
            if (body.startsWith("v")) {
              load.ok.incrementAndGet();
            } else {
              load.errors.add(body);
            }
          }
        });
      }
      return load;
    }

    Result stop() throws InterruptedException {
      running.set(false);
      threads.shutdown();
      threads.awaitTermination(30, java.util.concurrent.TimeUnit.SECONDS);
      return new Result(ok.get(), errors.size(), List.copyOf(errors.subList(0, Math.min(5, errors.size()))));
    }
  }
}
