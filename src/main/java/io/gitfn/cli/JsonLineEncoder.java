package io.gitfn.cli;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.classic.spi.ThrowableProxyUtil;
import ch.qos.logback.core.encoder.EncoderBase;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One JSON object per log line: {@code {"time":…,"level":…,"logger":…,"thread":…,"message":…}}, plus the MDC's
 * entries and {@code "error"} with the stack trace when there is one. Logback's own {@code JsonEncoder} writes
 * sequence numbers, nanoseconds, the logger context and the message's arguments apart from it; log collectors want
 * the few fields here, with the message formatted.
 */
final class JsonLineEncoder extends EncoderBase<ILoggingEvent> {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final byte[] NONE = new byte[0];

  @Override
  public byte[] headerBytes() {
    return NONE;
  }

  @Override
  public byte[] encode(ILoggingEvent event) {
    Map<String, Object> line = new LinkedHashMap<>();
    line.put("time", Instant.ofEpochMilli(event.getTimeStamp()).toString());
    line.put("level", event.getLevel().toString());
    line.put("logger", event.getLoggerName());
    line.put("thread", event.getThreadName());
    line.put("message", event.getFormattedMessage());
    event.getMDCPropertyMap().forEach(line::putIfAbsent);
    IThrowableProxy error = event.getThrowableProxy();
    if (error != null) {
      line.put("error", ThrowableProxyUtil.asString(error));
    }
    try {
      return (JSON.writeValueAsString(line) + "\n").getBytes(StandardCharsets.UTF_8);
    } catch (JsonProcessingException e) {
      return ("{\"level\":\"ERROR\",\"message\":\"a log line could not be written as JSON\"}\n")
          .getBytes(StandardCharsets.UTF_8);
    }
  }

  @Override
  public byte[] footerBytes() {
    return NONE;
  }
}
