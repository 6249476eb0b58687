package io.gitfn.source;

import io.gitfn.source.SourceException.Kind;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Consumer;
import org.eclipse.jgit.api.Git;
import org.eclipse.jgit.errors.MissingObjectException;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.Ref;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.lib.SubmoduleConfig.FetchRecurseSubmodulesMode;
import org.eclipse.jgit.revwalk.RevCommit;
import org.eclipse.jgit.revwalk.RevWalk;
import org.eclipse.jgit.storage.file.FileRepositoryBuilder;
import org.eclipse.jgit.transport.RefSpec;
import org.eclipse.jgit.transport.TagOpt;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The local bare mirror of one repository, reached with one set of credentials, and shared by every source
 * that uses them. A check is one {@code ls-remote}; a fetch happens only for commits the mirror lacks; and
 * concurrent callers share one check and one fetch.
 *
 * <p>Every operation that touches the mirror's files holds the read side of a lock; eviction takes the write
 * side only if nobody holds it, so a mirror mid-operation is never deleted. An evicted mirror is fetched again
 * on its next {@link #ensure}.
 */
public final class Mirror {

  private static final Logger LOG = LoggerFactory.getLogger(Mirror.class);
  /** The most refs an ls-remote may advertise, and the most bytes its answer may have over HTTP. */
  static final int MAX_REFS = 50_000;
  static final long MAX_ADVERTISEMENT_BYTES = 4L << 20;

  static {
    BoundedHttpConnections.install();
  }

  private final RepositoryUrl url;
  private final Path directory;
  private final Path gitDir;
  private final SourceSettings settings;
  private final RemoteAccess access;
  private final NetworkCalls network;
  private final Consumer<Mirror> afterFetch;

  private final ReentrantReadWriteLock files = new ReentrantReadWriteLock();
  private final ReentrantLock opening = new ReentrantLock();
  private volatile Repository repository;

  private final AtomicReference<CompletableFuture<RemoteRefs>> lsRemoteInFlight = new AtomicReference<>();
  private final AtomicReference<InFlightFetch> fetchInFlight = new AtomicReference<>();
  private volatile RemoteRefs lastSeen;
  private final AtomicInteger lsRemoteCount = new AtomicInteger();
  private final AtomicInteger fetchCount = new AtomicInteger();
  private volatile long lastUsed = System.nanoTime();

  private record InFlightFetch(Set<Revision> revisions, CompletableFuture<Void> done) {}

  Mirror(
      RepositoryUrl url,
      GitCredentials credentials,
      Path directory,
      SourceSettings settings,
      Consumer<Mirror> afterFetch) {
    this.url = url;
    this.directory = directory;
    this.gitDir = directory.resolve("repository.git");
    this.settings = settings;
    this.access = new RemoteAccess(url, credentials, directory.resolve("ssh"));
    this.network = new NetworkCalls(url.fetchUrl());
    this.afterFetch = afterFetch;
  }

  public RepositoryUrl url() {
    return url;
  }

  /** Every ref of the remote and its commit, from one {@code ls-remote} shared with concurrent callers. */
  public RemoteRefs remoteRefs() throws SourceException {
    touch();
    CompletableFuture<RemoteRefs> mine = new CompletableFuture<>();
    CompletableFuture<RemoteRefs> running = lsRemoteInFlight.compareAndExchange(null, mine);
    if (running != null) {
      return await(running);
    }
    try {
      RemoteRefs refs = lsRemote();
      lastSeen = refs;
      lsRemoteInFlight.set(null);
      mine.complete(refs);
    } catch (SourceException | RuntimeException | Error e) {
      // Error too: a future left incomplete would make every later check wait for ever.
      lsRemoteInFlight.set(null);
      mine.completeExceptionally(e);
    }
    return await(mine);
  }

  /** The commit {@code selector} picks now; a pinned commit needs no network. */
  public Revision resolve(RefSelector selector) throws SourceException {
    if (!selector.needsRemoteCheck()) {
      return selector.resolveIn(Map.of());
    }
    try {
      return remoteRefs().resolve(selector);
    } catch (SourceException e) {
      if (e.kind() != Kind.REF_NOT_FOUND) {
        throw e;
      }
      throw new SourceException(Kind.REF_NOT_FOUND, e.getMessage() + " in " + url.fetchUrl(), e.getCause());
    }
  }

  private RemoteRefs lsRemote() throws SourceException {
    lsRemoteCount.incrementAndGet();
    long started = System.nanoTime();
    try {
      Collection<Ref> refs = network.run("ls-remote", settings.timeout(), () -> CappedInputStream.limit(
          MAX_ADVERTISEMENT_BYTES,
          // Branches and tags are all a selector can name. Over protocol v2 the server sends only those (ls-refs
          // with ref prefixes): a forge's pull-request refs, tens of thousands on a busy GitHub repository, never
          // count against the caps below, nor cross the network at every check.
          () -> access.applyTo(Git.lsRemoteRepository().setRemote(url.fetchUrl()).setHeads(true).setTags(true)
              .setTimeout(timeoutSeconds())).call()));
      if (refs.size() > MAX_REFS) {
        throw new SourceException(Kind.TOO_LARGE, url.fetchUrl() + " advertises " + refs.size() + " refs, more than"
            + " the " + MAX_REFS + " gitfn reads; track a repository with fewer branches and tags");
      }
      Map<String, String> commits = new HashMap<>();
      for (Ref ref : refs) {
        ObjectId id = ref.getPeeledObjectId() != null ? ref.getPeeledObjectId() : ref.getObjectId();
        if (id != null) {
          commits.put(ref.getName(), id.name());
        }
      }
      LOG.debug("ls-remote {}: {} refs in {} ms", url, commits.size(), millisSince(started));
      return new RemoteRefs(commits, Instant.now());
    } catch (SourceException e) {
      throw e;
    } catch (Exception e) {
      throw FailureClassifier.classify(e, "ls-remote", url.fetchUrl());
    }
  }

  /**
   * Makes sure the mirror holds the commit of every revision, fetching in one go those it lacks. Does nothing
   * when it has them all. Branches and tags are fetched with {@code +} refspecs, so a force-push is followed.
   *
   * @return whether this call fetched; false when the mirror had them all, or another caller's fetch brought them
   */
  public boolean ensure(Collection<Revision> revisions) throws SourceException {
    touch();
    boolean discard = false;
    files.readLock().lock();
    try {
      Set<Revision> wanted = new LinkedHashSet<>(revisions);
      boolean fetchedMyself = false;
      while (true) {
        List<Revision> missing = missing(open(), wanted);
        if (missing.isEmpty()) {
          return fetchedMyself;
        }
        if (fetchedMyself) {
          throw stillMissing(missing);
        }
        InFlightFetch mine = new InFlightFetch(Set.copyOf(missing), new CompletableFuture<>());
        InFlightFetch running = fetchInFlight.compareAndExchange(null, mine);
        if (running != null) {
          try {
            await(running.done());
          } catch (SourceException e) {
            // Another caller's failure is ours only if it fetched everything we need.
            if (running.revisions().containsAll(missing)) {
              throw e;
            }
          }
          continue;
        }
        try {
          // Another caller's fetch may have ended between our look and our claim; fetching again would be waste.
          missing = missing(open(), missing);
          if (!missing.isEmpty()) {
            fetch(missing);
          }
          fetchInFlight.set(null);
          mine.done().complete(null);
        } catch (SourceException | RuntimeException | Error e) {
          fetchInFlight.set(null);
          mine.done().completeExceptionally(e);
          discard = e instanceof SourceException s && s.kind() == Kind.TOO_LARGE;
          throw e;
        }
        fetchedMyself = !missing.isEmpty();
      }
    } finally {
      files.readLock().unlock();
      if (discard) {
        discardTooLarge();
      }
    }
  }

  // A pinned commit that no branch or tag reaches will not appear by waiting; a branch that moved between
  // ls-remote and fetch will be resolved anew on the next check.
  private SourceException stillMissing(List<Revision> missing) {
    boolean pinsOnly = missing.stream().allMatch(r -> r.ref().equals(r.sha()));
    return pinsOnly
        ? new SourceException(
            Kind.REF_NOT_FOUND,
            "commit " + describe(missing) + " is not on any branch, tag or pull request of " + url.fetchUrl()
                + "; pin a commit that was pushed")
        : new SourceException(
            Kind.TRANSPORT,
            describe(missing) + " moved in " + url.fetchUrl() + " while it was fetched; it will be resolved again");
  }

  // A tag's revision needs its tag ref too, which holds the annotated tag object that signature verification checks;
  // the commit alone may have come with a branch.
  private List<Revision> missing(Repository repo, Collection<Revision> revisions) throws SourceException {
    List<Revision> missing = new ArrayList<>();
    RemoteRefs seen = lastSeen;
    try {
      for (Revision revision : revisions) {
        String tag = RefSelector.TAGS + revision.ref();
        boolean isTag = seen != null && revision.sha().equals(seen.refs().get(tag));
        if (!repo.getObjectDatabase().has(ObjectId.fromString(revision.sha()))
            || isTag && repo.exactRef(tag) == null) {
          missing.add(revision);
        }
      }
    } catch (IOException e) {
      throw new SourceException(Kind.TRANSPORT, "cannot read the mirror of " + url.fetchUrl() + ": " + e, e);
    }
    return missing;
  }

  private void fetch(List<Revision> missing) throws SourceException {
    fetch(missing, refSpecs(missing));
    List<Revision> pins = missing(open(), missing).stream().filter(r -> r.ref().equals(r.sha())).toList();
    if (!pins.isEmpty()) {
      // A pull request's head from a fork is on no branch of the repository, only under the forge's pull-request
      // refs (previews pin it): asked for only when branches and tags did not bring the commit.
      fetch(pins, PULL_REQUEST_REFS.stream().map(RefSpec::new).toList());
    }
  }

  /** Where the forges keep pull requests' heads: GitHub and Gitea, GitLab, Bitbucket Server. */
  static final List<String> PULL_REQUEST_REFS = List.of("+refs/pull/*:refs/pull/*",
      "+refs/merge-requests/*:refs/merge-requests/*", "+refs/pull-requests/*:refs/pull-requests/*");

  private void fetch(List<Revision> missing, List<RefSpec> specs) throws SourceException {
    fetchCount.incrementAndGet();
    long started = System.nanoTime();
    SizeGuard guard = new SizeGuard(gitDir.resolve("objects"), settings.maxRepositoryBytes());
    Repository repo = open();
    try {
      network.run("fetch from", settings.timeout(), () -> access
          .applyTo(
              Git.wrap(repo)
                  .fetch()
                  .setRemote(url.fetchUrl())
                  .setRefSpecs(specs)
                  .setTagOpt(TagOpt.NO_TAGS)
                  .setRemoveDeletedRefs(false)
                  .setRecurseSubmodules(FetchRecurseSubmodulesMode.NO)
                  .setTimeout(timeoutSeconds())
                  .setProgressMonitor(guard))
          .call());
    } catch (SourceException e) {
      throw e;
    } catch (Exception e) {
      if (guard.exceeded()) {
        throw tooLarge(guard.lastSize(), e);
      }
      throw FailureClassifier.classify(e, "fetch", url.fetchUrl());
    }
    long size = Directories.sizeOf(gitDir);
    if (size > settings.maxRepositoryBytes()) {
      throw tooLarge(size, null);
    }
    LOG.info("Fetched {} from {} in {} ms ({} bytes on disk)", describe(missing), url, millisSince(started), size);
    afterFetch.accept(this);
  }

  // Exact refs when the last ls-remote says what each revision is; every branch and tag otherwise (a pinned
  // commit, or a revision from before a restart), since servers need not serve a commit asked for by SHA.
  private List<RefSpec> refSpecs(List<Revision> missing) {
    RemoteRefs seen = lastSeen;
    Set<String> specs = new LinkedHashSet<>();
    for (Revision revision : missing) {
      String branch = RefSelector.HEADS + revision.ref();
      String tag = RefSelector.TAGS + revision.ref();
      Map<String, String> refs = seen == null ? Map.of() : seen.refs();
      if (revision.sha().equals(refs.get(branch))) {
        specs.add("+" + branch + ":" + branch);
      } else if (revision.sha().equals(refs.get(tag))) {
        specs.add("+" + tag + ":" + tag);
      } else {
        specs.add("+refs/heads/*:refs/heads/*");
        specs.add("+refs/tags/*:refs/tags/*");
      }
    }
    return specs.stream().map(RefSpec::new).toList();
  }

  private SourceException tooLarge(long size, Throwable cause) {
    return new SourceException(
        Kind.TOO_LARGE,
        "repository " + url.fetchUrl() + " is larger than the limit of " + settings.maxRepositoryBytes()
            + " bytes (" + size + " bytes fetched so far); the mirror was deleted. Raise the repository size"
            + " limit or make the repository smaller",
        cause);
  }

  private void discardTooLarge() {
    try {
      if (files.writeLock().tryLock(settings.timeout().toMillis(), TimeUnit.MILLISECONDS)) {
        try {
          deleteFiles();
        } finally {
          files.writeLock().unlock();
        }
      } else {
        LOG.warn("Mirror of {} is over its size limit but in use; the cache budget will evict it", url);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** A view of the mirror at {@code revision}, whose commit must already be here (see {@link #ensure}). */
  public Snapshot snapshot(Revision revision) throws SourceException {
    return read(
        repo -> {
          try (RevWalk walk = new RevWalk(repo)) {
            RevCommit commit = walk.parseCommit(ObjectId.fromString(revision.sha()));
            return new Snapshot(this, revision, commit.getTree().copy(), settings.maxFileBytes(),
                CommitSummary.of(commit));
          } catch (MissingObjectException e) {
            throw new SourceException(
                Kind.TRANSPORT,
                "commit " + revision + " is not in the mirror of " + url.fetchUrl() + "; ensure() it first", e);
          }
        });
  }

  /** Runs {@code reader} on the mirror's repository while the mirror cannot be evicted. */
  <T> T read(RepositoryReader<T> reader) throws SourceException {
    touch();
    files.readLock().lock();
    try {
      return reader.read(open());
    } catch (IOException e) {
      throw new SourceException(Kind.TRANSPORT, "cannot read the mirror of " + url.fetchUrl() + ": " + e, e);
    } finally {
      files.readLock().unlock();
    }
  }

  /** Reads a mirror's repository; it must not keep the repository or anything read from it past the call. */
  public interface RepositoryReader<T> {
    T read(Repository repository) throws IOException, SourceException;
  }

  private Repository open() throws SourceException {
    Repository current = repository;
    if (current != null) {
      return current;
    }
    opening.lock();
    try {
      if (repository == null) {
        Files.createDirectories(directory);
        Repository repo = new FileRepositoryBuilder().setGitDir(gitDir.toFile()).setBare().build();
        if (!Files.isDirectory(gitDir.resolve("objects"))) {
          repo.create(true);
        }
        // JGit packs a mirror up after fetches (a pack per fetch adds up). It must do so inside the fetch, under
        // the mirror's lock: a detached GC races with eviction and with readers of the packs it replaces.
        var config = repo.getConfig();
        config.setBoolean("gc", null, "autoDetach", false);
        config.save();
        repository = repo;
      }
      return repository;
    } catch (IOException | IllegalStateException e) {
      throw new SourceException(Kind.TRANSPORT, "cannot create the mirror of " + url.fetchUrl() + " in " + gitDir, e);
    } finally {
      opening.unlock();
    }
  }

  /** Deletes the mirror's files if no operation holds them; true when it did. */
  boolean evictIfIdle() {
    if (network.lingering() || !files.writeLock().tryLock()) {
      return false; // a fetch past its deadline may still be writing
    }
    try {
      deleteFiles();
      return true;
    } finally {
      files.writeLock().unlock();
    }
  }

  private void deleteFiles() {
    opening.lock();
    try {
      if (repository != null) {
        repository.close();
        repository = null;
      }
      Directories.deleteRecursively(gitDir);
      LOG.info("Deleted the mirror of {} from {}", url, gitDir);
    } catch (IOException e) {
      LOG.warn("Could not delete the mirror of {} in {}", url, gitDir, e);
    } finally {
      opening.unlock();
    }
  }

  long diskUsage() {
    return Directories.sizeOf(directory);
  }

  long lastUsed() {
    return lastUsed;
  }

  Path directory() {
    return directory;
  }

  void close() {
    files.writeLock().lock();
    try {
      opening.lock();
      try {
        if (repository != null) {
          repository.close();
          repository = null;
        }
      } finally {
        opening.unlock();
      }
      access.close();
    } finally {
      files.writeLock().unlock();
    }
  }

  /** How many {@code ls-remote}s really went to the server. */
  public int lsRemoteCount() {
    return lsRemoteCount.get();
  }

  /** How many fetches really went to the server. */
  public int fetchCount() {
    return fetchCount.get();
  }

  private void touch() {
    lastUsed = System.nanoTime();
  }

  private int timeoutSeconds() {
    return (int) Math.max(1, Math.min(Integer.MAX_VALUE, settings.timeout().toSeconds()));
  }

  private static String describe(Collection<Revision> revisions) {
    return revisions.stream().map(Revision::toString).toList().toString();
  }

  private static long millisSince(long started) {
    return (System.nanoTime() - started) / 1_000_000;
  }

  private static <T> T await(CompletableFuture<T> future) throws SourceException {
    try {
      return future.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new SourceException(Kind.TIMEOUT, "interrupted while waiting for Git", e);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof SourceException s) {
        throw s;
      }
      if (e.getCause() instanceof RuntimeException r) {
        throw r;
      }
      throw new IllegalStateException(e.getCause());
    }
  }

  @Override
  public String toString() {
    return "Mirror[" + url + " in " + directory.getFileName() + "]";
  }
}
