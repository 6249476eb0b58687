package io.gitfn.manifest;

/** A Function written as a YAML document: its fields are where the document has them. */
record DocumentOrigin(YamlDocument document) implements Origin {

  @Override
  public String sourcePath() {
    return document.file();
  }

  @Override
  public ManifestError error(String field, String message) {
    return document.error(field, message);
  }
}
