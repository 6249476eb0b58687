package io.gitfn.build;

import static org.assertj.core.api.Assertions.assertThat;

import io.gitfn.api.function.FunctionRuntime;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The buildless install script's dependency cache, run by the host's {@code sh} as Pods would run it, one Pod after
 * another. The script's absolute paths are moved under a temporary folder, and {@code npm} is a stand-in that
 * writes a marker and logs its calls: what is under test is when the script installs and what it keeps, not npm
 * (the real-node tests run real installs).
 */
class InstallScriptCacheTest {

  @TempDir
  Path dir;
  private Path source;
  private Path npmLog;

  @BeforeEach
  void sourceConfigMapAndFakeNpm() throws IOException {
    source = Files.createDirectories(dir.resolve("source"));
    Files.writeString(source.resolve(BuildlessSource.INDEX), """
        runtime.package-lock.json runtime/package-lock.json
        runtime.server.mjs runtime/server.mjs
        handler.js function/handler.js
        package.json function/package.json
        """);
    Files.writeString(source.resolve("runtime.package-lock.json"), "{\"lockfileVersion\": 3}");
    Files.writeString(source.resolve("runtime.server.mjs"), "// server");
    Files.writeString(source.resolve("handler.js"), "module.exports = { main: () => 'v1' };");
    Files.writeString(source.resolve("package.json"), "{\"dependencies\": {\"ms\": \"2.1.3\"}}");
    Path bin = Files.createDirectories(dir.resolve("bin"));
    npmLog = dir.resolve("npm.log");
    Files.writeString(bin.resolve("npm"), "#!/bin/sh\necho \"npm $1 in $(pwd)\" >> " + npmLog
        + "\nmkdir -p node_modules && echo installed > node_modules/marker\n");
    bin.resolve("npm").toFile().setExecutable(true);
  }

  @Test
  void theFirstPodInstallsAndKeepsTheNextInstallsNothing() throws Exception {
    Run first = startPod("pod-1");
    assertThat(first.exitCode()).as(first.output()).isZero();
    assertThat(first.output()).contains("are not in the cache: installing").contains("kept dependencies");
    assertThat(npmCalls()).hasSize(2);

    Run second = startPod("pod-2");
    assertThat(second.exitCode()).as(second.output()).isZero();
    assertThat(second.output()).contains("from the cache, nothing to install");
    assertThat(npmCalls()).as("no install for a key the cache has").hasSize(2);
    assertThat(app("pod-2").resolve("runtime/node_modules/marker")).hasContent("installed");
    assertThat(app("pod-2").resolve("function/node_modules/marker")).hasContent("installed");
    assertThat(app("pod-2").resolve("function/handler.js")).exists();
  }

  @Test
  void aHandlerChangeKeepsTheKeyAndADependencyChangeInstalls() throws Exception {
    startPod("pod-1");
    Files.writeString(source.resolve("handler.js"), "module.exports = { main: () => 'v2' };");
    assertThat(startPod("pod-2").output()).contains("from the cache");
    assertThat(npmCalls()).hasSize(2);

    Files.writeString(source.resolve("package.json"), "{\"dependencies\": {\"ms\": \"2.1.2\"}}");
    assertThat(startPod("pod-3").output()).contains("not in the cache: installing");
    assertThat(npmCalls()).hasSize(4);
    assertThat(entries()).hasSize(2);
  }

  @Test
  void aCacheThatCannotBeWrittenOnlyCostsTheInstall() throws Exception {
    Path file = Files.writeString(dir.resolve("not-a-folder"), "");

    Run run = startPod("pod-1", file.resolve("orders"));
    assertThat(run.exitCode()).as(run.output()).isZero();
    assertThat(run.output()).contains("could not keep dependencies").contains("this Pod runs without it");
    assertThat(app("pod-1").resolve("function/node_modules/marker")).exists();
  }

  @Test
  void entriesNoPodUsedForAWeekAreRemovedAndTheOneInUseIsKept() throws Exception {
    startPod("pod-1");
    Path stale = Files.createDirectories(cache().resolve("0123456789abcdef0123456789abcdef"));
    Files.setLastModifiedTime(stale, FileTime.from(Instant.now().minus(8, ChronoUnit.DAYS)));
    Path used = entries().stream().filter(p -> !p.equals(stale)).findFirst().orElseThrow();
    Files.setLastModifiedTime(used, FileTime.from(Instant.now().minus(8, ChronoUnit.DAYS)));

    assertThat(startPod("pod-2").output()).contains("from the cache");
    assertThat(entries()).containsExactly(used);
  }

  private record Run(int exitCode, String output) {}

  private Run startPod(String pod) throws Exception {
    return startPod(pod, cache());
  }

  /** Runs the init container's script for a new Pod: an empty app folder of its own, the cache shared. */
  private Run startPod(String pod, Path cache) throws Exception {
    Path app = Files.createDirectories(app(pod));
    String script = InstallScript.of(FunctionRuntime.NODEJS22, true)
        .replace(BuildlessDeployment.SOURCE + "/", source + "/")
        .replaceAll(BuildlessDeployment.APP + "(?=[/ \"\\n])", app.toString());
    ProcessBuilder builder = new ProcessBuilder("sh", "-c", script).redirectErrorStream(true);
    Map<String, String> env = builder.environment();
    env.put("PATH", dir.resolve("bin") + ":" + env.get("PATH"));
    env.put("HOSTNAME", pod);
    env.put(BuildlessDeployment.CACHE_DIR_ENV, cache.toString());
    Process process = builder.start();
    String output = new String(process.getInputStream().readAllBytes());
    assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
    return new Run(process.exitValue(), output);
  }

  private Path app(String pod) {
    return dir.resolve("pods").resolve(pod);
  }

  private Path cache() {
    return dir.resolve("cache/orders");
  }

  private List<Path> entries() throws IOException {
    try (var list = Files.list(cache())) {
      return list.sorted().toList();
    }
  }

  private List<String> npmCalls() throws IOException {
    return Files.exists(npmLog) ? Files.readAllLines(npmLog) : List.of();
  }
}
