package io.gitfn.testbed.git;

import java.util.List;

/** An external program (git, ssh-keygen) could not be started or exited with an error. */
public final class CommandFailedException extends RuntimeException {

  private final List<String> command;
  private final int exitCode;
  private final String stdout;
  private final String stderr;

  CommandFailedException(List<String> command, int exitCode, String stdout, String stderr) {
    super(
        "`%s` exited with %d%nstdout:%n%s%nstderr:%n%s"
            .formatted(String.join(" ", command), exitCode, stdout.strip(), stderr.strip()));
    this.command = List.copyOf(command);
    this.exitCode = exitCode;
    this.stdout = stdout;
    this.stderr = stderr;
  }

  CommandFailedException(List<String> command, String reason, Throwable cause) {
    super("`%s` could not run: %s".formatted(String.join(" ", command), reason), cause);
    this.command = List.copyOf(command);
    this.exitCode = -1;
    this.stdout = "";
    this.stderr = "";
  }

  public List<String> command() {
    return command;
  }

  /** The program's exit code, or -1 when it did not start or did not finish. */
  public int exitCode() {
    return exitCode;
  }

  public String stdout() {
    return stdout;
  }

  public String stderr() {
    return stderr;
  }
}
