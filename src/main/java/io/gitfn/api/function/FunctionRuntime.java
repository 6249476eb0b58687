package io.gitfn.api.function;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * The language runtimes a Function can run on, by their Kyma names, with everything gitfn derives from them: the
 * language, the version its base image and local interpreter must have, and whether Kyma has deprecated it.
 *
 * <p>A runtime Kyma adds next (python314, nodejs26) is one constant here; the CRD's enum, the default base image,
 * local mode's version check and the messages that list runtimes follow from it. Its image tests need the base
 * image on the real node ({@code NodeImages}).
 */
public enum FunctionRuntime {
  @JsonProperty("nodejs20")
  NODEJS20("nodejs20", Language.NODEJS, "20", true),
  @JsonProperty("nodejs22")
  NODEJS22("nodejs22", Language.NODEJS, "22", false),
  @JsonProperty("nodejs24")
  NODEJS24("nodejs24", Language.NODEJS, "24", false),
  @JsonProperty("python312")
  PYTHON312("python312", Language.PYTHON, "3.12", false);

  /** The two languages: one runtime server, one handler file and one dependency file each. */
  public enum Language {
    NODEJS("Node.js"),
    PYTHON("Python");

    private final String displayName;

    Language(String displayName) {
      this.displayName = displayName;
    }

    public String displayName() {
      return displayName;
    }
  }

  /** Kyma's default since serverless 1.11 (serverless#2258). */
  public static final FunctionRuntime DEFAULT = NODEJS24;

  private final String value;
  private final Language language;
  private final String version;
  private final boolean deprecated;

  FunctionRuntime(String value, Language language, String version, boolean deprecated) {
    this.value = value;
    this.language = language;
    this.version = version;
    this.deprecated = deprecated;
  }

  /** The name used in YAML, such as {@code nodejs24}. */
  public String value() {
    return value;
  }

  public Language language() {
    return language;
  }

  public boolean isNodejs() {
    return language == Language.NODEJS;
  }

  /** The language version, as its images tag it: {@code 24}, {@code 3.12}. */
  public String version() {
    return version;
  }

  /** Deprecated by Kyma: still built and run, with a warning in status and in {@code gitfn render}. */
  public boolean deprecated() {
    return deprecated;
  }

  /** {@code Node.js 24}, {@code Python 3.12}. */
  public String displayName() {
    return language.displayName() + " " + version;
  }

  /** Kyma's words (configuration_ready.go), so that tools that look for them find them. */
  public String deprecationWarning() {
    return "Warning: function configured, runtime " + value + " is deprecated and will be removed in the future";
  }

  @Override
  public String toString() {
    return value;
  }
}
