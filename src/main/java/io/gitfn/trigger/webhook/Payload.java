package io.gitfn.trigger.webhook;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.filter.FilteringParserDelegate;
import com.fasterxml.jackson.core.filter.TokenFilter;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.gitfn.source.RepositoryUrl;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A JSON payload read by dotted field paths, whose errors name the field (for example {@code push.changes[0].new}).
 * Only the {@link PayloadFields} a parser names are kept; the rest of the body is skipped as it is read.
 */
final class Payload {

  // Real payloads nest a few levels; deeper nesting only costs the parser's stack.
  private static final int MAX_NESTING = 32;
  private static final ObjectMapper JSON = new ObjectMapper(JsonFactory.builder()
      .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(MAX_NESTING).build()).build());

  private final JsonNode node;
  private final String prefix;

  private Payload(JsonNode node, String prefix) {
    this.node = node;
    this.prefix = prefix;
  }

  /** Reads the fields of {@code body} that {@code fields} names, and nothing else. */
  static Payload parse(byte[] body, PayloadFields fields) throws MalformedDeliveryException {
    if (!startsWithObject(body)) {
      throw new MalformedDeliveryException("the body is not a JSON object (set the hook's content type to application/json)");
    }
    try (JsonParser parser = new FilteringParserDelegate(JSON.createParser(body), fields,
        TokenFilter.Inclusion.INCLUDE_ALL_AND_PATH, true)) {
      JsonNode root = JSON.readTree(parser);
      // Nothing the parser reads is in the body: the object is read as empty, and the parser names what is missing.
      return new Payload(root == null || root.isMissingNode() ? JsonNodeFactory.instance.objectNode() : root, "");
    } catch (JacksonException e) {
      throw new MalformedDeliveryException(
          "the body is not JSON (set the hook's content type to application/json): " + e.getOriginalMessage());
    } catch (IOException e) {
      throw new MalformedDeliveryException("the body cannot be read: " + e.getMessage());
    }
  }

  private static boolean startsWithObject(byte[] body) {
    for (byte b : body) {
      if (b != ' ' && b != '\t' && b != '\n' && b != '\r') {
        return b == '{';
      }
    }
    return false;
  }

  /** How many fields this object kept from the body. */
  int fieldCount() {
    return node.size();
  }

  /** A non-blank string field. */
  String text(String path) throws MalformedDeliveryException {
    JsonNode n = at(path);
    if (!n.isMissingNode() && !n.isNull() && !n.isTextual()) {
      throw new MalformedDeliveryException("payload field " + name(path) + " must be a string");
    }
    return optionalText(path).orElseThrow(() -> missing(path));
  }

  Optional<String> optionalText(String path) {
    JsonNode n = at(path);
    return n.isTextual() && !n.asText().isBlank() ? Optional.of(n.asText()) : Optional.empty();
  }

  /** A string, number or boolean field as text; empty when it is missing, null or blank. */
  Optional<String> optionalScalar(String path) {
    JsonNode n = at(path);
    return n.isValueNode() && !n.isNull() && !n.asText().isBlank() ? Optional.of(n.asText()) : Optional.empty();
  }

  /** A whole number above zero, such as a pull request's number. */
  long positiveNumber(String path) throws MalformedDeliveryException {
    JsonNode n = at(path);
    if (n.isMissingNode() || n.isNull()) {
      throw missing(path);
    }
    if (!n.isIntegralNumber() || !n.canConvertToLong() || n.asLong() <= 0) {
      throw new MalformedDeliveryException("payload field " + name(path) + " must be a whole number above 0");
    }
    return n.asLong();
  }

  /** A boolean field; false when it is missing or null. */
  boolean flag(String path) throws MalformedDeliveryException {
    JsonNode n = at(path);
    if (!n.isMissingNode() && !n.isNull() && !n.isBoolean()) {
      throw new MalformedDeliveryException("payload field " + name(path) + " must be true or false");
    }
    return n.asBoolean(false);
  }

  /** An object field; empty when it is missing or null. */
  Optional<Payload> object(String path) {
    JsonNode n = at(path);
    return n.isObject() ? Optional.of(new Payload(n, name(path) + ".")) : Optional.empty();
  }

  /** The objects of an array field. */
  List<Payload> array(String path) throws MalformedDeliveryException {
    JsonNode n = at(path);
    if (!n.isArray()) {
      throw new MalformedDeliveryException("payload field " + name(path) + " is missing or not a list");
    }
    List<Payload> items = new ArrayList<>();
    for (int i = 0; i < n.size(); i++) {
      items.add(new Payload(n.get(i), name(path) + "[" + i + "]."));
    }
    return items;
  }

  /** The objects of an array field; none when it is missing or null (what was not a list was never read). */
  List<Payload> optionalArray(String path) throws MalformedDeliveryException {
    JsonNode n = at(path);
    return n.isMissingNode() || n.isNull() ? List.of() : array(path);
  }

  /**
   * The repository addresses found at these paths, in order. At least one must be present; a present one
   * that is not a Git URL is an error naming its field.
   */
  List<RepositoryUrl> repositoryUrls(String... paths) throws MalformedDeliveryException {
    List<RepositoryUrl> urls = new ArrayList<>();
    for (String path : paths) {
      Optional<String> url = optionalText(path);
      if (url.isPresent()) {
        urls.add(repositoryUrl(path, url.get()));
      }
    }
    if (urls.isEmpty()) {
      throw new MalformedDeliveryException("payload field " + name(paths[0]) + " is missing"
          + (paths.length > 1 ? " (and so are " + String.join(", ", names(paths)) + ")" : ""));
    }
    return urls;
  }

  RepositoryUrl repositoryUrl(String path, String url) throws MalformedDeliveryException {
    if (url.chars().anyMatch(c -> c < ' ' || c == 0x7f)) {
      throw new MalformedDeliveryException("payload field " + name(path) + " is not a Git URL");
    }
    try {
      return RepositoryUrl.parse(url);
    } catch (IllegalArgumentException e) {
      throw new MalformedDeliveryException("payload field " + name(path) + ": " + e.getMessage());
    }
  }

  /** A field that should be a full ref ({@code refs/heads/main}). */
  String ref(String path) throws MalformedDeliveryException {
    return checkedRef(path, text(path));
  }

  /** A full ref taken from the field at {@code path}, checked as Git would before it reaches a log line. */
  String checkedRef(String path, String ref) throws MalformedDeliveryException {
    // Git refuses control characters and spaces in ref names; refusing them here also keeps log lines whole.
    if (ref.chars().anyMatch(c -> c <= ' ' || c == 0x7f)) {
      throw new MalformedDeliveryException("payload field " + name(path) + " is not a valid ref name");
    }
    if (!ref.startsWith("refs/")) {
      throw new MalformedDeliveryException(
          "payload field " + name(path) + " must be a full ref such as refs/heads/main, not " + ref);
    }
    return ref;
  }

  MalformedDeliveryException missing(String path) {
    return new MalformedDeliveryException("payload field " + name(path) + " is missing");
  }

  String name(String path) {
    return prefix + path;
  }

  private List<String> names(String[] paths) {
    List<String> names = new ArrayList<>();
    for (int i = 1; i < paths.length; i++) {
      names.add(name(paths[i]));
    }
    return names;
  }

  private JsonNode at(String path) {
    JsonNode n = node;
    for (String part : path.split("\\.")) {
      n = n.path(part);
    }
    return n;
  }
}
