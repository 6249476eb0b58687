package io.gitfn.local;

import io.gitfn.api.function.FunctionRuntime;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * The Functions local mode runs, kept in step with what the source declares. A changed Function rolls out
 * blue/green: the new process must pass {@code /healthz} before the proxy switches to it, requests already on the
 * old one finish there, and then it stops. A release that fails to start leaves the old one serving and says why;
 * every other Function goes on.
 */
final class LocalFunctions implements AutoCloseable {

  private static final Duration STARTUP = Duration.ofSeconds(60);
  private static final Duration DRAIN = Duration.ofSeconds(30);

  private final Proxy proxy;
  private final RuntimeHomes runtimes;
  private final Dependencies dependencies;
  private final Interpreters interpreters = Interpreters.fromEnvironment();
  // Runtimes already told that PATH's interpreter is another version: once per run is enough.
  private final Set<FunctionRuntime> versionNoted = EnumSet.noneOf(FunctionRuntime.class);
  private final Path cache;
  private final Progress progress;
  private final LocalState state;
  private final Map<String, Running> running = new HashMap<>(); // namespace/name -> what serves it
  // Old versions drain and stop here, off the thread that follows the source: a process that takes its full
  // drain time must not hold back the next push.
  private final ExecutorService retiring = Executors.newCachedThreadPool(r -> {
    Thread thread = new Thread(r, "gitfn-up-retire");
    thread.setDaemon(true);
    return thread;
  });

  private record Running(FunctionProcess process, Proxy.Backend backend) {}

  LocalFunctions(Proxy proxy, Path cache, Progress progress, LocalState state) {
    this.proxy = proxy;
    this.state = state;
    this.runtimes = new RuntimeHomes(cache);
    this.dependencies = new Dependencies(cache);
    this.cache = cache;
    this.progress = progress;
  }

  /** Brings the running Functions in line with {@code desired}: starts, switches and stops processes. */
  synchronized void apply(List<LocalRelease> desired) {
    apply(desired, Map.of());
  }

  /**
   * Brings the running Functions in line with {@code desired}: starts, switches and stops processes. A Function of
   * {@code unrunnable} (by id, with the reason) is declared but has no release to run: what runs of it serves on,
   * as a Deployment keeps its old Pods while a new one cannot start.
   */
  synchronized void apply(List<LocalRelease> desired, Map<String, String> unrunnable) {
    Set<String> wanted = desired.stream().map(LocalRelease::id).collect(Collectors.toSet());
    wanted.addAll(unrunnable.keySet());
    unrunnable.forEach((id, reason) -> {
      boolean serving = running.containsKey(id);
      progress.fail(id, (serving ? "kept the running version: " : "not started: ") + reason);
      state.unrunnable(id, (serving ? "cannot run, so the version before serves on: " : "cannot run: ") + reason,
          serving);
    });
    for (String gone : new ArrayList<>(running.keySet())) {
      if (!wanted.contains(gone)) {
        Running old = running.remove(gone);
        String[] id = gone.split("/", 2);
        proxy.unroute(id[0], id[1]);
        retiring.submit(() -> stop(old));
        progress.say(gone, "removed");
      }
    }
    for (LocalRelease release : desired) {
      Running current = running.get(release.id());
      if (current != null && current.process().release().sameAs(release)) {
        continue;
      }
      roll(release, current);
    }
  }

  private void roll(LocalRelease release, Running current) {
    long started = System.nanoTime();
    state.starting(release);
    try {
      Interpreters.Interpreter interpreter = interpreters.of(release.runtime());
      String note = Interpreters.versionNote(release.runtime(), interpreter);
      if (!note.isEmpty() && versionNoted.add(release.runtime())) {
        progress.say(release.id(), "note: " + note);
      }
      Path home = runtimes.home(Language.of(release.runtime()));
      long installing = System.nanoTime();
      Dependencies.Installed installed = dependencies.install(release.runtime(), release.dependencies());
      if (installed.ranInstaller()) {
        progress.say(release.id(), "installed dependencies in " + millis(installing));
      }
      long starting = System.nanoTime();
      FunctionProcess process = FunctionProcess.start(release, interpreter.executable(), home, installed, cache,
          STARTUP);
      progress.say(release.id(), "started " + release.runtime().value() + " on port " + process.port() + " in "
          + millis(starting) + " (content key " + release.key().tag().substring(0, 12) + ")");
      Proxy.Backend backend = new Proxy.Backend(process.port());
      proxy.route(release.namespace(), release.name(), backend);
      running.put(release.id(), new Running(process, backend));
      progress.say(release.id(), "switched in " + millis(started) + "; serving at " + progress.url(release));
      state.serving(release, progress.url(release));
      if (current != null) {
        retiring.submit(() -> stop(current));
      }
    } catch (LocalException e) {
      progress.fail(release.id(), (current == null ? "not started: " : "kept the running version: ")
          + e.getMessage());
      state.failed(release, (current == null ? "did not start: " : "did not start, so the version before serves on: ")
          + e.getMessage(), current != null);
    }
  }

  /** Lets the old process finish the requests it has, then stops it. */
  private static void stop(Running old) {
    Proxy.drain(old.backend(), DRAIN);
    old.process().close();
  }

  /** The processes running now, by Function. */
  synchronized Map<String, Long> pids() {
    Map<String, Long> pids = new HashMap<>();
    running.forEach((id, r) -> pids.put(id, r.process().pid()));
    return pids;
  }

  private static String millis(long since) {
    return (System.nanoTime() - since) / 1_000_000 + " ms";
  }

  @Override
  public synchronized void close() {
    retiring.shutdown();
    running.values().parallelStream().forEach(r -> r.process().close());
    running.clear();
    try {
      retiring.awaitTermination(30, TimeUnit.SECONDS); // the old versions still draining
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Where local mode tells the user what it does. */
  interface Progress {
    void say(String function, String message);

    void fail(String function, String message);

    String url(LocalRelease release);

    static Progress to(PrintWriter out, String base) {
      return new Progress() {
        @Override
        public synchronized void say(String function, String message) {
          out.println("✔ " + function + ": " + message);
          out.flush();
        }

        @Override
        public synchronized void fail(String function, String message) {
          out.println("✗ " + function + ": " + message);
          out.flush();
        }

        @Override
        public String url(LocalRelease release) {
          return base + "/" + release.name();
        }
      };
    }
  }
}
