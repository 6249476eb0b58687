package io.gitfn.testbed.git;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Pattern;
import org.eclipse.jgit.api.Git;
import org.eclipse.jgit.api.errors.GitAPIException;

/** The directory of bare repositories that the HTTP and the SSH Git server share. */
public final class BareRepositories {

  public static final String DEFAULT_BRANCH = "main";
  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]*");

  private final Path directory;

  public BareRepositories(Path directory) {
    this.directory = directory;
  }

  /** Creates an empty bare repository {@code <directory>/<name>.git} whose HEAD is {@code main}. */
  public BareRepository create(String name) throws IOException {
    if (!NAME.matcher(name).matches() || name.endsWith(".git")) {
      throw new IllegalArgumentException(
          "Repository name '" + name + "' is not letters, digits, '.', '_' and '-'");
    }
    Path gitDir = directory.resolve(name + ".git");
    if (Files.exists(gitDir)) {
      throw new IllegalArgumentException("Repository " + gitDir + " already exists");
    }
    try (Git git =
        Git.init()
            .setBare(true)
            .setInitialBranch(DEFAULT_BRANCH)
            .setDirectory(gitDir.toFile())
            .call()) {
      // JGit's receive-pack would start a background GC after pushes, which races with fetches being served.
      var config = git.getRepository().getConfig();
      config.setBoolean("receive", null, "autogc", false);
      config.save();
      return new BareRepository(name, gitDir);
    } catch (GitAPIException e) {
      throw new IOException("Cannot create bare repository " + gitDir, e);
    }
  }

  public Path directory() {
    return directory;
  }
}
