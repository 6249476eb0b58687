package io.gitfn.source;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Logs what JGit really said under a classified failure, so FailureClassifierTest can follow real messages. */
final class ObservedFailures {

  private static final Logger LOG = LoggerFactory.getLogger(ObservedFailures.class);

  private ObservedFailures() {}

  static void log(SourceException e) {
    StringBuilder text = new StringBuilder();
    for (Throwable c = e.getCause(); c != null; c = c.getCause()) {
      text.append(" | ").append(c.getClass().getName()).append(": ").append(c.getMessage());
    }
    LOG.info("{} <-{}", e.kind(), text.length() == 0 ? " (no cause)" : text);
  }
}
