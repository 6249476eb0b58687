package io.gitfn.testbed.git;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** A clone made by the {@code git} command-line client, with remote {@code origin}. */
public final class WorkingCopy {

  private final GitClient git;
  private final Path directory;

  WorkingCopy(GitClient git, Path directory) {
    this.git = git;
    this.directory = directory;
  }

  /** Writes {@code content} to the file at {@code path}, relative to the top of the clone. */
  public WorkingCopy write(String path, String content) throws IOException {
    Path file = directory.resolve(path).normalize();
    if (!file.startsWith(directory)) {
      throw new IllegalArgumentException(path + " is outside the working copy");
    }
    Files.createDirectories(file.getParent());
    Files.writeString(file, content);
    return this;
  }

  /** Commits every change in the working tree and returns the new commit's SHA. */
  public String commit(String message) {
    git("add", "--all");
    git("commit", "--quiet", "--message", message);
    return head();
  }

  /** Pushes the current branch to the branch of the same name on {@code origin}. */
  public void push() {
    push("HEAD");
  }

  /** Pushes {@code refspecs} (for example {@code refs/tags/v1}) to {@code origin}. */
  public void push(String... refspecs) {
    List<String> arguments = new ArrayList<>(List.of("push", "--quiet", "origin"));
    arguments.addAll(List.of(refspecs));
    git(arguments.toArray(String[]::new));
  }

  /** Tags HEAD with a lightweight tag and returns the SHA of the tagged commit. */
  public String tag(String name) {
    git("tag", name);
    return head();
  }

  /** Tags HEAD with an annotated tag and returns the SHA of the tag object, not of the commit. */
  public String annotatedTag(String name, String message) {
    git("tag", "--annotate", "--message", message, name);
    return git("rev-parse", "refs/tags/" + name).strip();
  }

  /** The SHA of the commit checked out. */
  public String head() {
    return git("rev-parse", "HEAD").strip();
  }

  /** Runs any other {@code git} command in this clone and returns its standard output. */
  public String git(String... arguments) {
    return git.run(directory, arguments);
  }

  public Path directory() {
    return directory;
  }
}
