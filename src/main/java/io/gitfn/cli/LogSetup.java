package io.gitfn.cli;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.encoder.Encoder;
import java.util.Locale;
import org.slf4j.LoggerFactory;

/**
 * {@code gitfn controller}'s logging, set from its flags: text or one JSON object per line, at a level, on stderr.
 * The other commands keep {@code logback.xml}; this replaces it for the controller, which runs as a service whose
 * logs a collector reads.
 */
final class LogSetup {

  enum Format { TEXT, JSON }

  private LogSetup() {
  }

  /** Parses {@code --log-format}. */
  static Format format(String value) {
    try {
      return Format.valueOf(value.strip().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("--log-format `" + value + "` is not one of text, json");
    }
  }

  /** Parses {@code --log-level}. */
  static Level level(String value) {
    Level level = Level.toLevel(value.strip(), null);
    if (level == null) {
      throw new IllegalArgumentException("--log-level `" + value + "` is not one of error, warn, info, debug, trace");
    }
    return level;
  }

  static void configure(Format format, Level level) {
    LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
    context.reset();
    Encoder<ILoggingEvent> encoder;
    if (format == Format.JSON) {
      encoder = new JsonLineEncoder();
    } else {
      PatternLayoutEncoder pattern = new PatternLayoutEncoder();
      pattern.setPattern("%d{HH:mm:ss.SSS} %-5level %logger{24} - %msg%n");
      encoder = pattern;
    }
    encoder.setContext(context);
    encoder.start();
    ConsoleAppender<ILoggingEvent> stderr = new ConsoleAppender<>();
    stderr.setName("STDERR");
    stderr.setTarget("System.err");
    stderr.setContext(context);
    stderr.setEncoder(encoder);
    stderr.start();
    Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
    root.setLevel(level);
    root.addAppender(stderr);
    // The libraries' info lines are noise at the controller's info; at debug, they are what one looks for.
    if (level.isGreaterOrEqual(Level.INFO)) {
      for (String noisy : new String[] {"io.fabric8", "org.eclipse.jetty", "org.apache.sshd"}) {
        context.getLogger(noisy).setLevel(Level.WARN);
      }
    }
  }
}
