package io.gitfn.source;

import io.gitfn.manifest.RelativeSources;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.storage.file.FileRepositoryBuilder;

/**
 * The Git repository a local folder is in, as the relative Git URLs of the Functions in the folder see it when
 * {@code gitfn render}, {@code diff} or {@code up} reads the folder: {@code ./} is that repository (read from its
 * {@code .git}, so at what its branches and tags hold, not its work tree), {@code ../} climbs from its {@code origin}
 * remote, the server it came from.
 */
public final class EnclosingRepository {

  private EnclosingRepository() {
  }

  /** What relative URLs in {@code folder} resolve against; a base that knows none, with why, outside a repository. */
  public static RelativeSources.Base of(Path folder) {
    Path start;
    try {
      start = folder.toRealPath();
    } catch (IOException e) {
      return RelativeSources.Base.none("cannot read folder " + folder + ": " + e.getMessage());
    }
    FileRepositoryBuilder found = new FileRepositoryBuilder().findGitDir(start.toFile());
    if (found.getGitDir() == null) {
      return RelativeSources.Base.none("folder " + folder + " is not in a Git repository, and render, diff and up"
          + " resolve a relative URL against the repository that holds the folder (they look for a .git from the"
          + " folder up)");
    }
    try (Repository repository = found.setMustExist(true).build()) {
      String self = fileUrl(repository.getDirectory().toPath());
      Path home = repository.isBare() ? repository.getDirectory().toPath() : repository.getWorkTree().toPath();
      String origin = repository.getConfig().getString("remote", "origin", "url");
      if (origin == null || origin.isBlank()) {
        return new RelativeSources.Base(Optional.of(self), Optional.empty(), "the repository at " + home
            + " has no origin remote, which `../` is resolved against", null, null);
      }
      try {
        return new RelativeSources.Base(Optional.of(self), Optional.of(remoteUrl(origin.strip(), home)), "", null,
            null);
      } catch (IllegalArgumentException e) {
        return new RelativeSources.Base(Optional.of(self), Optional.empty(), "the origin remote of the repository at "
            + home + " cannot be resolved against: " + e.getMessage(), null, null);
      }
    } catch (IOException | IllegalArgumentException e) {
      return RelativeSources.Base.none("cannot open the Git repository at " + found.getGitDir() + ": "
          + e.getMessage());
    }
  }

  /** A remote's URL as gitfn reads it: a local path (as {@code git clone /srv/repo} writes it) as a file URL. */
  private static String remoteUrl(String remote, Path home) {
    boolean url = remote.contains("://") || remote.matches("[^/:]+@?[^/:]*:.*");
    if (url) {
      // RepositoryUrl drops an http(s) password, which a resolved URL would otherwise print everywhere.
      return RepositoryUrl.parse(remote).fetchUrl();
    }
    return fileUrl(home.resolve(remote).normalize());
  }

  private static String fileUrl(Path path) {
    String uri = path.toAbsolutePath().normalize().toUri().toString();
    return uri.endsWith("/") ? uri.substring(0, uri.length() - 1) : uri;
  }
}
