package io.gitfn.manifest;

import com.fasterxml.jackson.databind.JsonNode;

/** One document of a YAML file as a Jackson tree, with the line of each of its fields. */
record YamlDocument(String file, JsonNode tree, Lines lines) {

  int line(String field) {
    return lines.of(field);
  }

  ManifestError error(String field, String message) {
    return new ManifestError(file, line(field), field, message);
  }
}
