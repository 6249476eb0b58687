package io.gitfn.cli;

import io.gitfn.api.GoDuration;
import java.time.Duration;
import picocli.CommandLine.Option;

/** {@code --wait} and {@code --timeout}, shared by the commands that request a reconcile. */
final class WaitOptions {

  @Option(names = "--wait", description = "Wait for the controller to act on the request, and show the outcome.")
  boolean wait;

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
}
