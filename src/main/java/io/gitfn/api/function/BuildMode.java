package io.gitfn.api.function;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.gitfn.api.Annotations;
import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * How a Function's code reaches its Pods. The controller's {@code --build-mode} sets the default and the
 * {@value Annotations#BUILD_MODE} annotation overrides it per Function; the Function's spec stays Kyma's.
 */
public enum BuildMode {
  /** A build Job makes an image named by content key, pushed to a registry; the Deployment runs it. */
  IMAGE("image"),
  /**
   * No build: the Deployment runs the runtime's base image, the source comes from an immutable ConfigMap named by
   * content key, and an init container installs the dependencies at every Pod start.
   */
  BUILDLESS("buildless");

  private final String value;

  BuildMode(String value) {
    this.value = value;
  }

  public String value() {
    return value;
  }

  /** {@code image, buildless}, for messages. */
  public static String names() {
    return Arrays.stream(values()).map(BuildMode::value).collect(Collectors.joining(", "));
  }

  /**
   * The mode a value names, case-insensitively and without surrounding blanks.
   *
   * @throws IllegalArgumentException naming the value and the modes there are
   */
  public static BuildMode parse(String text) {
    String wanted = text == null ? "" : text.strip().toLowerCase(Locale.ROOT);
    return Arrays.stream(values()).filter(m -> m.value.equals(wanted)).findFirst().orElseThrow(
        () -> new IllegalArgumentException("`" + text + "` is not a build mode: use one of " + names()));
  }

  /**
   * The mode the object's {@value Annotations#BUILD_MODE} annotation asks for; empty when it has none.
   *
   * @throws IllegalArgumentException when the annotation's value names no mode
   */
  public static Optional<BuildMode> requested(HasMetadata object) {
    return Annotations.get(object, Annotations.BUILD_MODE).map(BuildMode::parse);
  }

  @Override
  public String toString() {
    return value;
  }
}
