package io.gitfn.api.function;

import com.fasterxml.jackson.annotation.JsonProperty;

/** The language runtimes a Function can run on, by their Kyma names. */
public enum FunctionRuntime {
  @JsonProperty("nodejs20")
  NODEJS20("nodejs20"),
  @JsonProperty("nodejs22")
  NODEJS22("nodejs22"),
  @JsonProperty("python312")
  PYTHON312("python312");

  private final String value;

  FunctionRuntime(String value) {
    this.value = value;
  }

  /** The name used in YAML, such as {@code nodejs22}. */
  public String value() {
    return value;
  }

  @Override
  public String toString() {
    return value;
  }
}
