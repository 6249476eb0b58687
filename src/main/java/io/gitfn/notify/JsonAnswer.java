package io.gitfn.notify;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * A part of a forge's JSON answer, with where it came from, so that a field of the wrong type fails with a message
 * that names the request and the field instead of a NullPointerException or a silent default.
 *
 * @param node the JSON
 * @param request the request it answers, as {@link ForgeRequest#named()} shows it
 * @param path where this part is in the answer, such as {@code [3].head.sha}; empty for the whole answer
 * @param statusCode the HTTP status of the answer
 */
record JsonAnswer(JsonNode node, String request, String path, int statusCode) {

  /** The whole of the answer to {@code request}. */
  static JsonAnswer of(JsonNode node, ForgeRequest request, int statusCode) {
    return new JsonAnswer(node, request.named(), "", statusCode);
  }

  /** The object at {@code path}; it must be one. */
  JsonAnswer object(String... path) {
    JsonAnswer found = at(path);
    if (!found.node.isObject()) {
      throw found.wrong("an object");
    }
    return found;
  }

  /** The text at {@code path}; it must be a non-empty string. */
  String text(String... path) {
    JsonAnswer found = at(path);
    if (!found.node.isTextual() || found.node.asText().isEmpty()) {
      throw found.wrong("a non-empty string");
    }
    return found.node.asText();
  }

  /** The text at {@code path}, or empty when it is missing or null; a value of another type is an error. */
  Optional<String> optionalText(String... path) {
    JsonAnswer found = at(path);
    if (found.node.isMissingNode() || found.node.isNull()) {
      return Optional.empty();
    }
    if (!found.node.isTextual()) {
      throw found.wrong("a string");
    }
    return Optional.of(found.node.asText());
  }

  /** The whole number at {@code path}; it must be one and fit a long. */
  long number(String... path) {
    JsonAnswer found = at(path);
    if (!found.node.isIntegralNumber() || !found.node.canConvertToLong()) {
      throw found.wrong("a whole number");
    }
    return found.node.asLong();
  }

  /** The boolean at {@code path}, or {@code absent} when it is missing. */
  boolean flag(boolean absent, String... path) {
    JsonAnswer found = at(path);
    if (found.node.isMissingNode() || found.node.isNull()) {
      return absent;
    }
    if (!found.node.isBoolean()) {
      throw found.wrong("true or false");
    }
    return found.node.asBoolean();
  }

  /** The ISO-8601 time with an offset at {@code path}, as GitHub, GitLab, Gitea and Bitbucket Cloud write them. */
  Instant time(String... path) {
    String text = text(path);
    try {
      return OffsetDateTime.parse(text).toInstant();
    } catch (DateTimeParseException e) {
      throw at(path).wrong("a time such as 2026-01-02T03:04:05Z");
    }
  }

  /** The elements of the array at {@code path}; it must be one. An empty path means this part itself. */
  List<JsonAnswer> items(String... path) {
    JsonAnswer found = at(path);
    if (!found.node.isArray()) {
      throw found.wrong("an array");
    }
    List<JsonAnswer> items = new ArrayList<>(found.node.size());
    for (int i = 0; i < found.node.size(); i++) {
      items.add(new JsonAnswer(found.node.get(i), request, found.path + "[" + i + "]", statusCode));
    }
    return items;
  }

  /** Whether {@code path} leads to something other than null. */
  boolean has(String... path) {
    JsonNode found = at(path).node;
    return !found.isMissingNode() && !found.isNull();
  }

  private JsonAnswer at(String... path) {
    JsonNode current = node;
    StringBuilder at = new StringBuilder(this.path);
    for (String field : path) {
      current = current.path(field);
      at.append(at.length() == 0 ? "" : ".").append(field);
    }
    return new JsonAnswer(current, request, at.toString(), statusCode);
  }

  private ForgeException wrong(String expected) {
    String found = node.isMissingNode() ? "missing" : node.getNodeType().name().toLowerCase(Locale.ROOT);
    String field = path.isEmpty() ? "the answer" : "field " + path;
    return ForgeException.unusable(request + " answered", statusCode, field + " is " + found + ", not " + expected);
  }
}
