package io.gitfn.local;

import io.gitfn.manifest.RelativeSources;
import io.gitfn.manifest.SourceTree;
import io.gitfn.source.CommitSummary;
import io.gitfn.source.EnclosingRepository;
import io.gitfn.source.FolderTree;
import io.gitfn.source.GitCredentials;
import io.gitfn.source.MirrorCache;
import io.gitfn.source.RefSelector;
import io.gitfn.source.RepositoryUrl;
import io.gitfn.source.Revision;
import io.gitfn.source.Snapshot;
import io.gitfn.source.SourceException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

/** What {@code gitfn up} follows: a folder's files, or a branch of a Git repository. */
interface FollowedTree {

  /** A new state of the source, with words for the progress line. */
  /**
   * A new state of the source.
   *
   * @param revision {@code main@sha1:<sha>} for a branch, {@code folder@<digest of names, sizes and times>} for a
   *     folder
   * @param commit the commit's subject, author and time, for a branch
   */
  record Change(SourceTree tree, String describe, String revision, Optional<CommitSummary> commit) {}

  /** The source as it is now, if it changed since the last call (the first call always answers). */
  Optional<Change> poll() throws IOException, SourceException;

  /** What a relative Git URL of a Function in it ({@code ./}, {@code ../other.git}) resolves against. */
  RelativeSources.Base relativeUrls();

  static FollowedTree of(String source, String ref, MirrorCache mirrors) {
    Path folder = Path.of(source);
    if (!source.contains("://") && !source.matches("[^/]+@[^:]+:.*") && Files.isDirectory(folder)) {
      return new Folder(folder);
    }
    return new Branch(mirrors, RepositoryUrl.parse(source), RefSelector.fromKymaReference(ref == null ? "main" : ref));
  }

  /** A folder, looked at file by file: a change to any file's size or time is a change. */
  final class Folder implements FollowedTree {
    // Installed packages and Git's own files are not the Functions' source.
    private static final Set<String> SKIPPED = Set.of(".git", "node_modules", "__pycache__");
    private final Path root;
    private String seen;

    Folder(Path root) {
      this.root = root;
    }

    @Override
    public Optional<Change> poll() throws IOException {
      String now = fingerprint();
      if (now.equals(seen)) {
        return Optional.empty();
      }
      seen = now;
      return Optional.of(new Change(new FolderTree(root), "read " + root, "folder@" + digest(now),
          Optional.empty()));
    }

    @Override
    public RelativeSources.Base relativeUrls() {
      return EnclosingRepository.of(root);
    }

    private static String digest(String fingerprint) {
      try {
        return java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256")
            .digest(fingerprint.getBytes(java.nio.charset.StandardCharsets.UTF_8)), 0, 6);
      } catch (java.security.NoSuchAlgorithmException e) {
        throw new IllegalStateException("every JVM has SHA-256", e);
      }
    }

    private String fingerprint() throws IOException {
      StringBuilder text = new StringBuilder();
      try (Stream<Path> walk = Files.walk(root)) {
        for (Path path : walk.filter(p -> root.relativize(p).toString().isEmpty()
            || Stream.of(root.relativize(p).toString().split("/")).noneMatch(SKIPPED::contains)).sorted().toList()) {
          BasicFileAttributes attributes = Files.readAttributes(path, BasicFileAttributes.class);
          text.append(root.relativize(path)).append(' ').append(attributes.size()).append(' ')
              .append(attributes.lastModifiedTime().toMillis()).append('\n');
        }
      }
      return text.toString();
    }
  }

  /** A branch, tag or commit of a repository, fetched into a mirror when it moves. */
  final class Branch implements FollowedTree {
    private final MirrorCache mirrors;
    private final RepositoryUrl url;
    private final RefSelector ref;
    private Revision seen;

    Branch(MirrorCache mirrors, RepositoryUrl url, RefSelector ref) {
      this.mirrors = mirrors;
      this.url = url;
      this.ref = ref;
    }

    @Override
    public RelativeSources.Base relativeUrls() {
      return RelativeSources.Base.of(url.fetchUrl(), null, null);
    }

    @Override
    public Optional<Change> poll() throws SourceException {
      long started = System.nanoTime();
      // An unchanged ref costs the ls-remote only: the mirror has the commit, so nothing is fetched.
      Snapshot now = mirrors.read(url, new GitCredentials.None(), ref);
      if (now.revision().equals(seen)) {
        return Optional.empty();
      }
      seen = now.revision();
      return Optional.of(new Change(now, "fetched " + seen + " in " + (System.nanoTime() - started) / 1_000_000
          + " ms", seen.toString(), Optional.of(now.summary())));
    }
  }
}
