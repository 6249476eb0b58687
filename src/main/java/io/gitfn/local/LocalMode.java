package io.gitfn.local;

import io.gitfn.api.function.Function;
import io.gitfn.build.BuildContextTooLargeException;
import io.gitfn.build.BuildSettings;
import io.gitfn.build.FunctionBuildPlan;
import io.gitfn.dashboard.DashboardServer;
import io.gitfn.manifest.InvalidManifestException;
import io.gitfn.manifest.Manifest;
import io.gitfn.manifest.ManifestError;
import io.gitfn.manifest.ManifestOptions;
import io.gitfn.manifest.ManifestReader;
import io.gitfn.manifest.RelativeSources;
import io.gitfn.source.GitBaseDir;
import io.gitfn.source.GitCredentials;
import io.gitfn.source.MirrorCache;
import io.gitfn.source.SourceException;
import io.gitfn.source.SourceSettings;
import java.io.IOException;
import java.io.PrintWriter;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * {@code gitfn up}: the GitOps loop on one machine. It follows a folder or a Git branch with the controller's
 * source and manifest layers, and runs every Function it declares behind one proxy, blue/green. Bad input is
 * reported per Function, and the others keep running.
 */
public final class LocalMode implements AutoCloseable {

  // The controller's content key, computed with its defaults: local mode only uses it to name builds.
  private static final BuildSettings KEYS = BuildSettings.defaults();

  private final LocalSettings settings;
  private final PrintWriter out;
  private final Proxy proxy;
  private final LocalFunctions functions;
  private final MirrorCache mirrors;
  private final LocalState state;
  private final ManifestReader manifests = new ManifestReader(ManifestOptions.defaults());
  private final ScheduledExecutorService loop = Executors.newSingleThreadScheduledExecutor(r -> {
    Thread thread = new Thread(r, "gitfn-up");
    thread.setDaemon(true);
    return thread;
  });

  private LocalMode(LocalSettings settings, PrintWriter out, Proxy proxy, LocalState state) {
    this.settings = settings;
    this.out = out;
    this.proxy = proxy;
    this.state = state;
    this.mirrors = new MirrorCache(SourceSettings.defaults(settings.cache().resolve("mirrors")));
    this.functions = new LocalFunctions(proxy, settings.cache(), LocalFunctions.Progress.to(out, baseUrl(proxy)),
        state);
  }

  /** Starts the proxy, with the dashboard at {@value Proxy#DASHBOARD}/; nothing runs until {@link #follow}. */
  public static LocalMode start(LocalSettings settings, PrintWriter out) throws LocalException {
    LocalState state = new LocalState(Clock.systemUTC());
    Proxy proxy = Proxy.start(settings.bind(), settings.port(), DashboardServer.pages(Proxy.DASHBOARD, state,
        (namespace, name) -> List.of(), (namespace, job, whole) -> {
          throw new IllegalStateException("local mode has no build Jobs");
        }, Optional.empty()));
    LocalMode mode = new LocalMode(settings, out, proxy, state);
    out.println("gitfn up: serving Functions at " + baseUrl(proxy) + "/<function>, the dashboard at "
        + baseUrl(proxy) + Proxy.DASHBOARD + "/");
    out.flush();
    return mode;
  }

  /** The proxy's port. */
  public int port() {
    return proxy.port();
  }

  /** The process of each running Function, by {@code namespace/name}. */
  public Map<String, Long> pids() {
    return functions.pids();
  }

  /**
   * Follows a folder, or a Git URL at {@code ref}, reading the Functions under {@code path}: applies the current
   * state at once and then every change, until closed.
   */
  public void follow(String source, String ref, String path) {
    FollowedTree watched = FollowedTree.of(source, ref, mirrors);
    state.following(source, watched instanceof FollowedTree.Folder ? null : ref, path);
    loop.scheduleWithFixedDelay(() -> check(watched, path), 0, settings.interval().toMillis(),
        TimeUnit.MILLISECONDS);
  }

  private void check(FollowedTree watched, String path) {
    try {
      Optional<FollowedTree.Change> change = watched.poll();
      if (change.isEmpty()) {
        return;
      }
      FollowedTree.Change moved = change.get();
      say("↻ " + moved.describe());
      state.fetched(moved.revision());
      Manifest manifest;
      try {
        manifest = manifests.read(moved.tree(), path == null ? "." : path, List.of());
      } catch (InvalidManifestException e) {
        say("✗ this revision is invalid, so the running Functions stay as they are:");
        e.errors().stream().map(ManifestError::toString).forEach(line -> say("  " + line));
        state.invalid(moved.revision(), moved.commit(), "revision " + moved.revision() + " is invalid; what runs"
            + " stays: " + String.join("; ", e.errors().stream().limit(5).map(ManifestError::toString).toList()));
        return;
      }
      manifest.notices().forEach(notice -> say("notice: " + notice));
      // The controller applies these; saying so beats a Function whose env is silently empty here.
      manifest.objects().forEach(o -> say("notice: " + o.place() + ": " + o.type().kind() + " " + o.name()
          + " is applied by a FunctionRepository in a cluster; gitfn up serves each Function on a path of its own and"
          + " does not route"));
      manifest.encryptedSecrets().forEach(d -> say("notice: " + d.file() + ":" + d.line() + ": an encrypted Secret"
          + " is applied by a FunctionRepository with spec.decryption in a cluster; gitfn up does not decrypt it"));
      Map<String, String> unrunnable = new LinkedHashMap<>();
      RelativeSources.Base relativeUrls = watched.relativeUrls();
      for (Function fn : manifest.functions()) {
        // Like a Git source that cannot be read: this Function keeps what runs, the others go on.
        RelativeSources.resolve(fn, relativeUrls).ifPresent(e -> unrunnable.put(LocalRelease.idOf(fn), e.toString()));
      }
      state.applied(moved.revision(), moved.commit(), manifest.functions());
      FolderConfigMaps configMaps = FolderConfigMaps.of(manifest.configMaps());
      List<LocalRelease> releases = new ArrayList<>();
      for (Function fn : manifest.functions()) {
        if (unrunnable.containsKey(LocalRelease.idOf(fn))) {
          continue;
        }
        try {
          releases.add(release(fn, configMaps));
        } catch (LocalException e) {
          unrunnable.put(LocalRelease.idOf(fn), e.getMessage());
        }
      }
      functions.apply(releases, unrunnable);
    } catch (IOException | SourceException | RuntimeException e) {
      say("✗ cannot read the source: " + e.getMessage() + "; trying again in " + settings.interval().toMillis()
          + " ms");
      state.unreadable("cannot read the source: " + e.getMessage());
    }
  }

  /**
   * What to run for one Function, its env read from the folder's {@code configMaps}.
   *
   * @throws LocalException when it cannot be run: its Git source cannot be read, or its env reads what the folder
   *     lacks
   */
  private LocalRelease release(Function fn, FolderConfigMaps configMaps) throws LocalException {
    String id = LocalRelease.idOf(fn);
    List<String> warnings = new ArrayList<>();
    try {
      FunctionBuildPlan plan = fn.getSpec().getSource().getGitRepository() == null
          ? FunctionBuildPlan.ofInline(fn, KEYS)
          : GitBaseDir.resolve(fn, mirrors, new GitCredentials.None(), KEYS).plan();
      LocalRelease release = LocalRelease.of(fn, plan, configMaps, warnings);
      warnings.forEach(w -> say("notice: " + id + ": " + w));
      return release;
    } catch (SourceException | BuildContextTooLargeException | IllegalArgumentException e) {
      throw new LocalException(e.getMessage());
    }
  }

  private void say(String line) {
    synchronized (out) {
      out.println(line);
      out.flush();
    }
  }

  private static String baseUrl(Proxy proxy) {
    return "http://localhost:" + proxy.port();
  }

  /** Stops following, then every Function process, then the proxy. */
  @Override
  public void close() throws Exception {
    loop.shutdownNow();
    loop.awaitTermination(30, TimeUnit.SECONDS);
    try (mirrors; proxy) {
      functions.close();
    }
  }
}
