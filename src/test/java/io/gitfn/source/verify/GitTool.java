package io.gitfn.source.verify;

import static org.assertj.core.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.storage.file.FileRepositoryBuilder;

/**
 * The real {@code git} and {@code ssh-keygen} in one working copy, reading no user or system configuration. A
 * machine without them fails the test that needs them, saying so: signatures made by git itself are the point.
 */
public final class GitTool {

  static final String NAME = "gitfn test";
  static final String EMAIL = "test@gitfn.invalid";

  private final Path directory;

  private GitTool(Path directory) {
    this.directory = directory;
  }

  /** A new repository in {@code directory} on branch {@code main}. */
  public static GitTool init(Path directory) throws IOException {
    Files.createDirectories(directory);
    GitTool git = new GitTool(directory);
    git.git("init", "-q", "-b", "main");
    return git;
  }

  public Repository open() throws IOException {
    return new FileRepositoryBuilder().setGitDir(directory.resolve(".git").toFile()).setMustExist(true).build();
  }

  /** {@code git <arguments>}; its standard output, stripped. */
  public String git(String... arguments) {
    List<String> argv = new ArrayList<>(List.of("git", "-c", "commit.gpgsign=false", "-c", "tag.gpgsign=false"));
    argv.addAll(List.of(arguments));
    return run(directory, argv);
  }

  /** An empty commit; {@code sshKey} signs it with git's SSH signing when not null. */
  public String commit(String message, Path sshKey) {
    if (sshKey == null) {
      git("commit", "-q", "--allow-empty", "-m", message);
    } else {
      git("-c", "gpg.format=ssh", "-c", "user.signingkey=" + sshKey, "commit", "-q", "-S", "--allow-empty", "-m",
          message);
    }
    return git("rev-parse", "HEAD");
  }

  /** A signed annotated tag on HEAD, {@code sshKey} signing; the tag object's id. */
  String signedTag(String name, Path sshKey) {
    git("-c", "gpg.format=ssh", "-c", "user.signingkey=" + sshKey, "tag", "-s", name, "-m", "release " + name);
    return git("rev-parse", "refs/tags/" + name);
  }

  static String run(Path directory, List<String> argv) {
    ProcessBuilder builder = new ProcessBuilder(argv).directory(directory.toFile());
    builder.environment().put("HOME", directory.toString());
    builder.environment().put("LC_ALL", "C");
    builder.environment().put("GIT_CONFIG_NOSYSTEM", "1");
    builder.environment().put("GIT_CONFIG_GLOBAL", "/dev/null");
    builder.environment().put("GIT_AUTHOR_NAME", NAME);
    builder.environment().put("GIT_AUTHOR_EMAIL", EMAIL);
    builder.environment().put("GIT_COMMITTER_NAME", NAME);
    builder.environment().put("GIT_COMMITTER_EMAIL", EMAIL);
    builder.redirectErrorStream(true);
    try {
      Process process = builder.start();
      process.getOutputStream().close();
      byte[] out = process.getInputStream().readAllBytes();
      if (!process.waitFor(60, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        return fail(argv + " did not finish in 60 s");
      }
      String text = new String(out, StandardCharsets.UTF_8);
      if (process.exitValue() != 0) {
        return fail(argv + " exited " + process.exitValue() + ": " + text);
      }
      return text.strip();
    } catch (IOException e) {
      return fail(argv.get(0) + " cannot run (" + e.getMessage() + "): these tests need git and ssh-keygen"
          + " (Debian: git, openssh-client)", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return fail("interrupted", e);
    }
  }

  /** A new ed25519 key pair made by {@code ssh-keygen}; returns the private key's path ({@code .pub} beside it). */
  public static Path sshKey(Path directory, String name) throws IOException {
    return sshKey(directory, name, "ed25519");
  }

  /** A new key pair of {@code type} ({@code ed25519}, {@code ecdsa}, {@code rsa}) made by {@code ssh-keygen}. */
  static Path sshKey(Path directory, String name, String type) throws IOException {
    Files.createDirectories(directory);
    Path key = directory.resolve(name);
    run(directory, List.of("ssh-keygen", "-q", "-t", type, "-N", "", "-C", name + "@gitfn.invalid", "-f",
        key.toString()));
    return key;
  }

  /** The {@code authorized_keys} line of a key {@link #sshKey} made. */
  public static String publicLine(Path key) throws IOException {
    return Files.readString(Path.of(key + ".pub")).strip();
  }
}
