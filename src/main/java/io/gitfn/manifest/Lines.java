package io.gitfn.manifest;

import java.util.Map;

/**
 * The line of each field of one YAML document, by its path ({@code spec.env[0].name}). A field that is not
 * there (a missing required field) gets the line of its nearest parent that is.
 */
record Lines(Map<String, Integer> byPath, int documentLine) {

  Lines {
    byPath = Map.copyOf(byPath);
  }

  static Lines none() {
    return new Lines(Map.of(), 0);
  }

  int of(String field) {
    String path = dotted(field);
    while (!path.isEmpty()) {
      Integer line = byPath.get(path);
      if (line != null) {
        return line;
      }
      path = parent(path);
    }
    return documentLine;
  }

  // spec.labels[app.kubernetes.io/name] is stored as spec.labels.app.kubernetes.io/name, data[1.conf] as
  // data.1.conf; only an index, spec.env[0], stays in brackets.
  private static String dotted(String field) {
    return field.replaceAll("\\[(?!\\d+\\])([^\\]]+)\\]", ".$1");
  }

  private static String parent(String path) {
    int cut = Math.max(path.lastIndexOf('.'), path.lastIndexOf('['));
    return cut < 0 ? "" : path.substring(0, cut);
  }
}
