package io.gitfn.cli;

import io.gitfn.api.GoDuration;
import java.time.Duration;
import java.util.Optional;
import picocli.CommandLine.Option;

/** {@code --wait[=running|applied]} and {@code --timeout}, shared by the commands that request a reconcile. */
final class WaitOptions {

  /** What {@code --wait} waits for. */
  enum Until {
    /** The revision runs: every Function of it is Ready with its image (the default). */
    RUNNING,
    /** The revision is applied to the cluster; its Functions may still build and roll out. */
    APPLIED
  }

  @Option(names = "--wait", arity = "0..1", fallbackValue = "running", paramLabel = "running|applied",
      description = "Wait for the controller to act on the request, and show the outcome: until the revision runs "
          + "(the default), or only until it is applied (--wait=applied).")
  String wait;

  @Option(names = "--timeout", defaultValue = "2m", paramLabel = "DURATION",
      description = "How long --wait waits, like 30s, 2m or 1h (default: ${DEFAULT-VALUE}).")
  String timeout;

  Duration timeout() {
    try {
      return GoDuration.parse(timeout);
    } catch (IllegalArgumentException e) {
      throw new CommandException("--timeout: " + e.getMessage());
    }
  }

  /** What to wait for; empty without {@code --wait}. */
  Optional<Until> until() {
    if (wait == null) {
      return Optional.empty();
    }
    return switch (wait) {
      case "running" -> Optional.of(Until.RUNNING);
      case "applied" -> Optional.of(Until.APPLIED);
      default -> throw new CommandException("--wait=" + wait + ": expected running or applied");
    };
  }
}
