package io.gitfn.testbed.git;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The real {@code git} command-line client, set up to reach the test Git servers: HTTP credentials
 * come through {@code GIT_ASKPASS}, SSH uses one key and a strict known_hosts, and neither the
 * user's nor the system's Git configuration is read.
 */
public final class GitClient {

  public static final String AUTHOR_NAME = "gitfn test";
  public static final String AUTHOR_EMAIL = "test@gitfn.invalid";

  private final Path home;
  private final Map<String, String> environment;

  private GitClient(Path home, Map<String, String> environment) {
    this.home = home;
    this.environment = Map.copyOf(environment);
  }

  /**
   * A client whose {@code HOME}, scripts and working copies live in {@code home}, logging in with {@code http}
   * over HTTP and with {@code ssh} over SSH (null: no SSH).
   */
  public static GitClient create(Path home, HttpCredentials http, SshAccess ssh)
      throws IOException {
    Files.createDirectories(home);
    Map<String, String> environment = new HashMap<>();
    environment.put("HOME", home.toString());
    environment.put("LC_ALL", "C");
    environment.put("GIT_CONFIG_NOSYSTEM", "1");
    environment.put("GIT_CONFIG_GLOBAL", "/dev/null");
    environment.put("GIT_TERMINAL_PROMPT", "0");
    environment.put("GIT_AUTHOR_NAME", AUTHOR_NAME);
    environment.put("GIT_AUTHOR_EMAIL", AUTHOR_EMAIL);
    environment.put("GIT_COMMITTER_NAME", AUTHOR_NAME);
    environment.put("GIT_COMMITTER_EMAIL", AUTHOR_EMAIL);
    // The password travels in the environment, never in a URL or an argument that gets logged.
    environment.put("GIT_ASKPASS", writeAskPass(home).toString());
    environment.put("GITFN_TEST_GIT_USERNAME", http.username());
    environment.put("GITFN_TEST_GIT_PASSWORD", http.password());
    if (ssh != null) {
      environment.put("GIT_SSH_COMMAND", sshCommand(ssh));
    }
    return new GitClient(home, environment);
  }

  private static Path writeAskPass(Path home) throws IOException {
    Path script = home.resolve("askpass.sh");
    Files.writeString(
        script,
        """
        #!/bin/sh
        case "$1" in
          Username*) printf '%s\\n' "$GITFN_TEST_GIT_USERNAME" ;;
          *) printf '%s\\n' "$GITFN_TEST_GIT_PASSWORD" ;;
        esac
        """);
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwx------"));
    return script;
  }

  private static String sshCommand(SshAccess ssh) {
    return String.join(
        " ",
        "ssh -F /dev/null",
        "-i " + quoted(ssh.key().privateKeyFile()),
        "-o IdentitiesOnly=yes",
        "-o UserKnownHostsFile=" + quoted(ssh.knownHostsFile()),
        "-o StrictHostKeyChecking=yes",
        "-o BatchMode=yes",
        "-o LogLevel=ERROR");
  }

  private static String quoted(Path path) {
    return "'" + path.toString().replace("'", "'\\''") + "'";
  }

  /** Clones {@code url} into a new directory under this client's home. */
  public WorkingCopy clone(String url) throws IOException {
    Path directory = Files.createTempDirectory(home, "clone-");
    // An empty remote has no HEAD to copy, so the first branch is named here.
    run(
        home,
        "-c",
        "init.defaultBranch=" + BareRepositories.DEFAULT_BRANCH,
        "clone",
        "--quiet",
        url,
        directory.toString());
    return new WorkingCopy(this, directory);
  }

  /** Runs {@code git <arguments>} in {@code directory} and returns its standard output. */
  public String run(Path directory, String... arguments) {
    List<String> argv = new ArrayList<>();
    argv.add("git");
    argv.addAll(List.of(arguments));
    return new ExternalCommand(argv, directory, environment).run();
  }

  /**
   * The environment this client's {@code git} runs with, for a program under test that runs {@code git} itself:
   * what a user's shell would give it to reach the test servers (credentials through {@code GIT_ASKPASS}, an
   * identity, no user or system configuration). It holds the password, so never print it.
   */
  public Map<String, String> environment() {
    return environment;
  }

  public Path home() {
    return home;
  }
}
