package io.gitfn.trigger.webhook;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/** A delivery's request headers by case-insensitive name; the first value of each, trimmed. */
record Headers(Map<String, String> byLowerCaseName) {

  Headers {
    Map<String, String> copy = new HashMap<>();
    byLowerCaseName.forEach((name, value) -> copy.putIfAbsent(name.toLowerCase(Locale.ROOT), value.trim()));
    byLowerCaseName = Map.copyOf(copy);
  }

  /** Headers from name/value pairs: {@code Headers.of("X-GitHub-Event", "push")}. */
  static Headers of(String... namesAndValues) {
    if (namesAndValues.length % 2 != 0) {
      throw new IllegalArgumentException("headers come in name/value pairs");
    }
    Map<String, String> map = new HashMap<>();
    for (int i = 0; i < namesAndValues.length; i += 2) {
      map.putIfAbsent(namesAndValues[i].toLowerCase(Locale.ROOT), namesAndValues[i + 1]);
    }
    return new Headers(map);
  }

  /** The header's value, empty when it is missing or blank. */
  Optional<String> get(String name) {
    return Optional.ofNullable(byLowerCaseName.get(name.toLowerCase(Locale.ROOT))).filter(v -> !v.isEmpty());
  }

  /** The first of these headers that is present. */
  Optional<String> first(String... names) {
    for (String name : names) {
      Optional<String> value = get(name);
      if (value.isPresent()) {
        return value;
      }
    }
    return Optional.empty();
  }

  String require(String name) throws MalformedDeliveryException {
    return get(name).orElseThrow(() -> new MalformedDeliveryException("header " + name + " is missing"));
  }
}
