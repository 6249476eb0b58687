package io.gitfn.source;

import io.gitfn.manifest.SourceTree;
import io.gitfn.source.SourceException.Kind;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.FileMode;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectLoader;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.treewalk.TreeWalk;

/**
 * The files of one commit, read straight from the mirror's object database; there is no working tree.
 *
 * <p>As a {@link SourceTree}, a failure is an {@link IOException} whose cause is the {@link SourceException}
 * (with its kind) and whose message is the same.
 */
public final class Snapshot implements SourceTree {

  private final Mirror mirror;
  private final Revision revision;
  private final ObjectId rootTree;
  private final long maxFileBytes;
  private final CommitSummary summary;
  // What the last list() walked: its folder and the symlinks in it, so that asking about each listed file does not
  // walk the tree from the top again for each.
  private volatile Listed listed;

  private record Listed(String folder, Set<String> symlinks) {
    boolean covers(String path) {
      return folder.isEmpty() || path.startsWith(folder + "/");
    }
  }

  Snapshot(Mirror mirror, Revision revision, ObjectId rootTree, long maxFileBytes, CommitSummary summary) {
    this.mirror = mirror;
    this.summary = summary;
    this.revision = revision;
    this.rootTree = rootTree;
    this.maxFileBytes = maxFileBytes;
  }

  public Revision revision() {
    return revision;
  }

  public String commit() {
    return revision.sha();
  }

  /** The commit's subject, author and time. */
  public CommitSummary summary() {
    return summary;
  }

  /** The files and symlinks under folder {@code path} ("" for the top), recursively, relative to the root, sorted. */
  @Override
  public List<String> list(String path, int limit) throws IOException {
    try {
      return files(path, limit);
    } catch (SourceException e) {
      throw new IOException(e.getMessage(), e);
    }
  }

  private List<String> files(String path, int limit) throws SourceException {
    String folder = normalize(path);
    return mirror.read(
        repo -> {
          ObjectId tree = tree(repo, folder)
              .orElseThrow(() -> notFound("folder", folder));
          List<String> files = new ArrayList<>();
          Set<String> symlinks = new HashSet<>();
          try (TreeWalk walk = new TreeWalk(repo)) {
            walk.addTree(tree);
            walk.setRecursive(true);
            while (files.size() <= limit && walk.next()) {
              // Files and symbolic links; a submodule is another repository's content.
              if (walk.getFileMode(0).getObjectType() == Constants.OBJ_BLOB) {
                String file = folder.isEmpty() ? walk.getPathString() : folder + "/" + walk.getPathString();
                files.add(file);
                if (walk.getFileMode(0) == FileMode.SYMLINK) {
                  symlinks.add(file);
                }
              }
            }
          }
          if (files.size() <= limit) {
            listed = new Listed(folder, Set.copyOf(symlinks));
          }
          files.sort(null);
          return files;
        });
  }

  /** The content of the file at {@code path} (for a symlink, its target), at most the configured file size. */
  @Override
  public byte[] read(String path) throws IOException {
    try {
      return bytes(path);
    } catch (SourceException e) {
      throw new IOException(e.getMessage(), e);
    }
  }

  /** The target of the symlink at {@code path}, or empty when it is a file; the file must exist. */
  @Override
  public Optional<String> symlinkTarget(String path) throws IOException {
    try {
      String file = normalize(path);
      Listed known = listed;
      if (known != null && known.covers(file)) {
        return known.symlinks().contains(file)
            ? Optional.of(new String(bytes(file), StandardCharsets.UTF_8)) : Optional.empty();
      }
      boolean link = mirror.read(
          repo -> {
            try (TreeWalk walk = file.isEmpty() ? null : TreeWalk.forPath(repo, file, rootTree)) {
              if (walk == null) {
                throw notFound("file", file);
              }
              return walk.getFileMode(0) == FileMode.SYMLINK;
            }
          });
      return link ? Optional.of(new String(bytes(file), StandardCharsets.UTF_8)) : Optional.empty();
    } catch (SourceException e) {
      throw new IOException(e.getMessage(), e);
    }
  }

  private byte[] bytes(String path) throws SourceException {
    String file = normalize(path);
    return mirror.read(
        repo -> {
          TreeWalk walk = file.isEmpty() ? null : TreeWalk.forPath(repo, file, rootTree);
          if (walk == null) {
            throw notFound("file", file);
          }
          try (walk) {
            if (walk.getFileMode(0).getObjectType() != Constants.OBJ_BLOB) {
              throw new SourceException(
                  Kind.PATH_NOT_FOUND, "'" + file + "' at " + revision + " is a folder, not a file");
            }
            ObjectLoader loader = repo.open(walk.getObjectId(0));
            if (loader.getSize() > maxFileBytes) {
              throw new SourceException(
                  Kind.TOO_LARGE,
                  "file '" + file + "' at " + revision + " is " + loader.getSize()
                      + " bytes, more than the limit of " + maxFileBytes + " bytes; make it smaller or raise"
                      + " the file size limit");
            }
            return loader.getBytes((int) Math.min(maxFileBytes, Integer.MAX_VALUE - 8));
          }
        });
  }

  /**
   * The Git tree id of folder {@code path}, or empty when there is no such folder. It changes exactly when
   * something under the folder changes, so it identifies the folder's content.
   */
  public Optional<String> treeId(String path) throws SourceException {
    String folder = normalize(path);
    return mirror.read(repo -> tree(repo, folder).map(ObjectId::name));
  }

  private Optional<ObjectId> tree(Repository repo, String folder) throws IOException {
    if (folder.isEmpty()) {
      return Optional.of(rootTree);
    }
    try (TreeWalk walk = TreeWalk.forPath(repo, folder, rootTree)) {
      if (walk == null || walk.getFileMode(0) != FileMode.TREE) {
        return Optional.empty();
      }
      return Optional.of(walk.getObjectId(0));
    }
  }

  // Paths as users write them in specs: "./functions/", "/functions", "functions".
  private String normalize(String path) throws SourceException {
    String p = path == null ? "" : path.trim().replace('\\', '/');
    List<String> parts = new ArrayList<>();
    for (String part : p.split("/")) {
      if (part.isEmpty() || part.equals(".")) {
        continue;
      }
      if (part.equals("..")) {
        throw new SourceException(Kind.PATH_NOT_FOUND, "path '" + path + "' leaves the repository");
      }
      parts.add(part);
    }
    return String.join("/", parts);
  }

  private SourceException notFound(String what, String path) {
    return new SourceException(
        Kind.PATH_NOT_FOUND,
        "there is no " + what + " '" + (path.isEmpty() ? "." : path) + "' at " + revision + " of "
            + mirror.url().fetchUrl());
  }

  @Override
  public String toString() {
    return "Snapshot[" + revision + "]";
  }
}
