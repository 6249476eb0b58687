package io.gitfn.cli;

import io.gitfn.api.function.FunctionRuntime;
import io.gitfn.manifest.ImageNames;
import io.gitfn.manifest.Runtimes;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * {@code --base-image RUNTIME=IMAGE}: the base image a runtime builds on instead of its default, for clusters that
 * pull from a mirror or have no way out (an air-gapped one). A Function's {@code runtimeImageOverride} still wins.
 */
final class BaseImageOption {

  static final String FLAG = "--base-image";

  private BaseImageOption() {
  }

  /**
   * The runtimes' base images the values name, over {@code defaults}.
   *
   * @throws IllegalArgumentException naming the flag, when a value is not RUNTIME=IMAGE, names no runtime of
   *     gitfn's, names one twice, or its image is not an image reference
   */
  static Map<FunctionRuntime, String> apply(Map<FunctionRuntime, String> defaults, List<String> values) {
    Map<FunctionRuntime, String> images = new EnumMap<>(defaults);
    Map<FunctionRuntime, String> given = new EnumMap<>(FunctionRuntime.class);
    for (String value : values) {
      int equals = value.indexOf('=');
      if (equals < 0) {
        throw new IllegalArgumentException(FLAG + " `" + value + "` is not RUNTIME=IMAGE, such as"
            + " nodejs22=registry.example.com/library/node:22-bookworm-slim");
      }
      String name = value.substring(0, equals).strip();
      String image = value.substring(equals + 1).strip();
      FunctionRuntime runtime = Runtimes.parse(name)
          .orElseThrow(() -> new IllegalArgumentException(FLAG + " `" + value + "`: " + Runtimes.unsupported(name)));
      // The image goes into the build's FROM line; a space or newline there would be a Dockerfile of its own.
      if (!ImageNames.isReference(image)) {
        throw new IllegalArgumentException(FLAG + " `" + value + "`: `" + image + "` is not an image reference"
            + " such as registry.example.com/library/node:22-bookworm-slim (letters, digits and . _ / : @ + -,"
            + " at most 255)");
      }
      if (given.put(runtime, image) != null) {
        throw new IllegalArgumentException(FLAG + " names " + runtime + " twice");
      }
    }
    images.putAll(given);
    return images;
  }
}
