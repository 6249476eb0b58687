package io.gitfn.local;

import io.gitfn.build.RuntimeFiles;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One Function version running as a process of gitfn's runtime, on a port of its own, on loopback. It is
 * {@linkplain #start started} from a build folder (the handler and dependency file of one content key, with the
 * installed dependencies beside) and counts as up only once {@code /healthz} answers 200.
 */
final class FunctionProcess implements AutoCloseable {

  private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();

  private final LocalRelease release;
  private final int port;
  private final GuardedProcess process;

  private FunctionProcess(LocalRelease release, int port, GuardedProcess process) {
    this.release = release;
    this.port = port;
    this.process = process;
  }

  /**
   * Starts a release on {@code interpreter} and waits until it is healthy.
   *
   * @throws LocalException when the process exits or stays unhealthy for {@code startup}; the message ends with
   *     the process's last output lines, such as a syntax error in the handler
   */
  static FunctionProcess start(LocalRelease release, Path interpreter, Path runtimeHome,
      Dependencies.Installed dependencies, Path cache, Duration startup) throws LocalException {
    Path build = build(release, dependencies, cache);
    int port = freePort();
    Map<String, String> env = new LinkedHashMap<>(release.env());
    env.put("FUNC_NAME", release.name());
    env.put("SERVICE_NAMESPACE", release.namespace());
    env.put("FUNC_RUNTIME", release.runtime().value());
    env.put("FUNC_HANDLER", "main");
    env.put("MOD_NAME", "handler");
    env.put("FUNC_PORT", Integer.toString(port));
    env.put("FUNC_BIND", "127.0.0.1");
    List<String> command;
    if (Language.of(release.runtime()) == Language.NODEJS) {
      env.put("HANDLER_PATH", build.resolve("handler.js").toString());
      command = List.of(interpreter.toString(), runtimeHome.resolve("server.mjs").toString());
    } else {
      env.put("FUNCTION_PATH", build.toString());
      // The Function's packages first: its own wins over a package the runtime lends, as in an image.
      env.put("PYTHONPATH", dependencies.folder().resolve("site") + ":" + runtimeHome.resolve("site"));
      env.put("PYTHONUNBUFFERED", "TRUE");
      command = List.of(interpreter.toString(), runtimeHome.resolve("server.py").toString());
    }
    Path log = cache.resolve("logs").resolve(release.namespace() + "-" + release.name() + "-" + port + ".log");
    GuardedProcess process = GuardedProcess.start(command, build, env, log);
    FunctionProcess started = new FunctionProcess(release, port, process);
    started.awaitHealthy(startup);
    return started;
  }

  LocalRelease release() {
    return release;
  }

  int port() {
    return port;
  }

  long pid() {
    return process.pid();
  }

  /** The build folder of a key: its handler and dependency file, and the installed dependencies linked in. */
  private static Path build(LocalRelease release, Dependencies.Installed dependencies, Path cache)
      throws LocalException {
    RuntimeFiles files = RuntimeFiles.of(release.runtime());
    Path folder = cache.resolve("builds").resolve(release.runtime().value() + "-" + release.key().tag());
    Installs.ensure(folder, target -> {
      Files.writeString(target.resolve(files.source()), release.handler(), StandardCharsets.UTF_8);
      Files.writeString(target.resolve(files.dependencies()), release.dependencies(), StandardCharsets.UTF_8);
      if (Language.of(release.runtime()) == Language.NODEJS) {
        // Node resolves a handler's require() through the node_modules beside it.
        Files.createSymbolicLink(target.resolve("node_modules"), dependencies.folder().resolve("node_modules"));
      }
    });
    return folder;
  }

  private void awaitHealthy(Duration startup) throws LocalException {
    Instant deadline = Instant.now().plus(startup);
    HttpRequest health = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/healthz"))
        .timeout(Duration.ofSeconds(1)).build();
    while (Instant.now().isBefore(deadline)) {
      if (!process.isAlive()) {
        throw new LocalException("the process exited with code " + process.exitValue() + ":\n"
            + process.tail(15));
      }
      try {
        if (HTTP.send(health, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
          return;
        }
      } catch (IOException e) {
        // not listening yet
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        process.close();
        throw new LocalException("interrupted while starting");
      }
      sleep(50);
    }
    process.close();
    throw new LocalException("/healthz did not answer 200 within " + startup.toSeconds() + " s:\n" + process.tail(15));
  }

  private static int freePort() throws LocalException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new LocalException("no free port: " + e.getMessage());
    }
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Stops the process: TERM, so it finishes what it serves, and KILL after 10 s. */
  @Override
  public void close() {
    process.close();
  }
}
