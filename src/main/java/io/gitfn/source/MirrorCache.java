package io.gitfn.source;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import java.util.stream.Stream;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * All mirrors, one per (fetch URL, credentials), each in a directory of {@code cacheDir} named by a hash of
 * the two, so no credential appears in a file name. When the directory grows past its budget, the mirrors
 * used least recently are deleted first; one that is mid-operation never is.
 */
public final class MirrorCache implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(MirrorCache.class);

  private final SourceSettings settings;
  private final byte[] nameKey;
  private final Map<String, Mirror> mirrors = new ConcurrentHashMap<>();
  private final ReentrantLock evicting = new ReentrantLock();

  public MirrorCache(SourceSettings settings) {
    this.settings = settings;
    try {
      Files.createDirectories(settings.cacheDir());
      this.nameKey = nameKey(settings.cacheDir().resolve(NAME_KEY));
    } catch (IOException e) {
      throw new IllegalStateException("cannot create the Git cache directory " + settings.cacheDir(), e);
    }
  }

  /** The file beside the mirrors that keys their names; it stays, so a restart finds the same mirrors. */
  static final String NAME_KEY = ".mirror-names.key";

  // A random key of this cache's own, readable by its owner only: a mirror's name printed in a log line cannot be
  // checked against guessed passwords offline, as a plain hash of the URL and the credentials could.
  private static byte[] nameKey(Path file) throws IOException {
    if (Files.isRegularFile(file)) {
      byte[] key = Files.readAllBytes(file);
      if (key.length == 32) {
        return key;
      }
    }
    byte[] key = new byte[32];
    new SecureRandom().nextBytes(key);
    Path temporary = Files.createTempFile(file.getParent(), ".mirror-names", ".tmp",
        PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    Files.write(temporary, key);
    Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    return Files.readAllBytes(file);
  }

  /** The one mirror of {@code url} reached with {@code credentials}. */
  public Mirror mirror(RepositoryUrl url, GitCredentials credentials) {
    String key = key(url, credentials);
    return mirrors.computeIfAbsent(
        key, k -> new Mirror(url, credentials, settings.cacheDir().resolve(k), settings, this::evictToBudget));
  }

  /**
   * The files of {@code url} at the commit {@code ref} picks now: one {@code ls-remote} (none for a pinned commit),
   * a fetch only when the mirror lacks that commit, then a snapshot. For callers that read Git when they need it,
   * such as {@code gitfn render} and {@code gitfn up}; the controller's watcher resolves refs on its own schedule.
   */
  public Snapshot read(RepositoryUrl url, GitCredentials credentials, RefSelector ref) throws SourceException {
    Mirror mirror = mirror(url, credentials);
    return read(mirror, mirror.resolve(ref));
  }

  /**
   * The files of {@code url} at {@code revision}. Cheap when the mirror has the commit; fetches it again when the
   * mirror was evicted since the revision was resolved.
   */
  public Snapshot read(RepositoryUrl url, GitCredentials credentials, Revision revision) throws SourceException {
    return read(mirror(url, credentials), revision);
  }

  /**
   * Runs {@code reader} on the mirror's repository once it holds {@code revision} (and, for a tag, its tag object),
   * while the mirror cannot be evicted: for what a {@link Snapshot}'s files do not show, such as signatures.
   */
  public <T> T inspect(RepositoryUrl url, GitCredentials credentials, Revision revision,
      Mirror.RepositoryReader<T> reader) throws SourceException {
    Mirror mirror = mirror(url, credentials);
    mirror.ensure(List.of(revision));
    return mirror.read(reader);
  }

  private static Snapshot read(Mirror mirror, Revision revision) throws SourceException {
    mirror.ensure(List.of(revision));
    return mirror.snapshot(revision);
  }

  /**
   * Closes a mirror nobody tracks any more (its repository and SSH client) and forgets it; its files stay until
   * the disk budget needs the room. A later {@link #mirror} of the same key opens it again.
   */
  public void release(Mirror mirror) {
    if (mirrors.values().remove(mirror)) {
      mirror.close();
    }
  }

  /** The bytes of every mirror on disk, including ones left by an earlier run. */
  public long diskUsage() {
    return Directories.sizeOf(settings.cacheDir());
  }

  /**
   * Deletes mirrors, oldest used first, until the cache fits its budget. Directories of an earlier run that no
   * source asked for yet go first. {@code keep} (the mirror that just fetched) and mirrors in use stay.
   */
  void evictToBudget(Mirror keep) {
    if (!evicting.tryLock()) {
      return;
    }
    try {
      long usage = diskUsage();
      if (usage <= settings.diskBudgetBytes()) {
        return;
      }
      for (Path orphan : orphans()) {
        long size = Directories.sizeOf(orphan);
        mirrors.compute(
            orphan.getFileName().toString(),
            (key, mirror) -> {
              if (mirror == null) {
                deleteOrphan(orphan);
              }
              return mirror;
            });
        usage -= size;
        if (usage <= settings.diskBudgetBytes()) {
          return;
        }
      }
      List<Mirror> byAge = new ArrayList<>(mirrors.values());
      byAge.sort(Comparator.comparingLong(Mirror::lastUsed));
      for (Mirror mirror : byAge) {
        if (usage <= settings.diskBudgetBytes()) {
          return;
        }
        if (mirror == keep) {
          continue;
        }
        long size = mirror.diskUsage();
        if (size > 0 && mirror.evictIfIdle()) {
          usage -= size - mirror.diskUsage();
        }
      }
      if (usage > settings.diskBudgetBytes()) {
        LOG.warn(
            "Git cache {} holds {} bytes, over its budget of {}, and every mirror left is in use",
            settings.cacheDir(), usage, settings.diskBudgetBytes());
      }
    } finally {
      evicting.unlock();
    }
  }

  private List<Path> orphans() {
    try (Stream<Path> entries = Files.list(settings.cacheDir())) {
      return entries
          .filter(Files::isDirectory)
          .filter(dir -> !mirrors.containsKey(dir.getFileName().toString()))
          .toList();
    } catch (IOException e) {
      return List.of();
    }
  }

  private static void deleteOrphan(Path directory) {
    try {
      Directories.deleteRecursively(directory);
      LOG.info("Deleted {}, a mirror no source uses since the controller started", directory);
    } catch (IOException e) {
      LOG.warn("Could not delete {}", directory, e);
    }
  }

  private String key(RepositoryUrl url, GitCredentials credentials) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(nameKey, "HmacSHA256"));
      mac.update(url.fetchUrl().getBytes(StandardCharsets.UTF_8));
      mac.update((byte) 0);
      mac.update(credentials.fingerprint().getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(mac.doFinal()).substring(0, 32);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("every Java runtime has HmacSHA256", e);
    }
  }

  /** Closes every mirror's repository and SSH client; the files stay for the next run. */
  @Override
  public void close() {
    mirrors.values().forEach(Mirror::close);
    mirrors.clear();
  }
}
