package io.gitfn.reconcile.registry;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * One {@code WWW-Authenticate} challenge as registries send it: a scheme, then {@code name=value} or
 * {@code name="quoted value"} parameters separated by commas, such as
 * {@code Bearer realm="https://auth.example/token",service="registry",scope="repository:a:pull,push"}.
 *
 * @param scheme lower case, such as {@code bearer} or {@code basic}
 * @param parameters by lower-case name
 */
record AuthChallenge(String scheme, Map<String, String> parameters) {

  AuthChallenge {
    scheme = scheme.toLowerCase(Locale.ROOT);
    parameters = Map.copyOf(parameters);
  }

  /** The challenge in a header value, or empty when the value has no scheme. */
  static Optional<AuthChallenge> parse(String header) {
    if (header == null || header.isBlank()) {
      return Optional.empty();
    }
    String text = header.strip();
    int space = indexOfWhitespace(text);
    String scheme = space < 0 ? text : text.substring(0, space);
    return Optional.of(new AuthChallenge(scheme, space < 0 ? Map.of() : parameters(text.substring(space))));
  }

  boolean is(String name) {
    return scheme.equalsIgnoreCase(name);
  }

  Optional<String> parameter(String name) {
    return Optional.ofNullable(parameters.get(name.toLowerCase(Locale.ROOT)));
  }

  private static Map<String, String> parameters(String text) {
    Map<String, String> parameters = new LinkedHashMap<>();
    int i = 0;
    while (i < text.length()) {
      while (i < text.length() && (text.charAt(i) == ',' || Character.isWhitespace(text.charAt(i)))) {
        i++;
      }
      int equals = text.indexOf('=', i);
      if (equals < 0) {
        break;
      }
      String name = text.substring(i, equals).strip().toLowerCase(Locale.ROOT);
      i = equals + 1;
      String value;
      if (i < text.length() && text.charAt(i) == '"') {
        StringBuilder quoted = new StringBuilder();
        for (i++; i < text.length() && text.charAt(i) != '"'; i++) {
          if (text.charAt(i) == '\\' && i + 1 < text.length()) {
            i++;
          }
          quoted.append(text.charAt(i));
        }
        i++; // the closing quote
        value = quoted.toString();
      } else {
        int comma = text.indexOf(',', i);
        int end = comma < 0 ? text.length() : comma;
        value = text.substring(i, end).strip();
        i = end;
      }
      parameters.putIfAbsent(name, value);
    }
    return parameters;
  }

  private static int indexOfWhitespace(String text) {
    for (int i = 0; i < text.length(); i++) {
      if (Character.isWhitespace(text.charAt(i))) {
        return i;
      }
    }
    return -1;
  }
}
