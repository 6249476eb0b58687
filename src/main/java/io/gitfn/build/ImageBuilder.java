package io.gitfn.build;

import io.gitfn.BuildInfo;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * The program a build Job runs to build a Function's image from its context and push it, with the image it runs
 * from and the arguments given before the ones gitfn adds. Both tools get the same context, destination, push
 * credentials, package-registry Secret and {@code base_image} build arg ({@link BuildJobSpec}).
 *
 * @param tool kaniko or buildah
 * @param image the container image of the build Job
 * @param args arguments given to the tool before gitfn's own (context, destination, base image, insecure
 *     registries)
 */
public record ImageBuilder(Tool tool, String image, List<String> args) {

  /** The containers project's own buildah image. */
  public static final String BUILDAH_IMAGE = "quay.io/buildah/stable:v1.42.2";
  /** The last executor image kaniko's project released before it was archived. */
  public static final String KANIKO_IMAGE = "gcr.io/kaniko-project/executor:v1.23.2";

  /** gitfn's own image, of this version, as the chart installs it. */
  public static final String GITFN_IMAGE = "ghcr.io/gitfn/gitfn:" + BuildInfo.load().gitfn();

  /** How gitfn can build images: layered, the default, or a build Job running buildah or kaniko. */
  public enum Tool {
    /**
     * Kyma's builder. Archived upstream in June 2025; the last release of its own images is v1.23.2. Runs as root
     * with four capabilities and the RuntimeDefault seccomp profile.
     */
    KANIKO("kaniko", KANIKO_IMAGE,
        // Kyma's executor args (§4.1) less --insecure and --skip-tls-verify, which gitfn gives per registry.
        List.of("--skip-unused-stages", "--log-format=text", "--cache=true", "--use-new-run",
            "--compressed-caching=false")),
    /**
     * Maintained by the containers project. Runs as root with three capabilities, vfs storage and chroot
     * isolation in a user namespace of its own; no privileged container.
     */
    BUILDAH("buildah", BUILDAH_IMAGE, List.of()),
    /**
     * No build tool: the controller assembles each image in-process from layers the registry holds, and a Job with
     * no privilege installs a dependency change (docs/functions.md#layered-images). Its image is gitfn's own, which
     * packs and pushes the installed dependencies ({@code gitfn pack}).
     */
    LAYERED("layered", GITFN_IMAGE, List.of());

    private final String value;
    private final String defaultImage;
    private final List<String> defaultArgs;

    Tool(String value, String defaultImage, List<String> defaultArgs) {
      this.value = value;
      this.defaultImage = defaultImage;
      this.defaultArgs = defaultArgs;
    }

    /** The name in flags and values: {@code kaniko} or {@code buildah}. */
    public String value() {
      return value;
    }

    public String defaultImage() {
      return defaultImage;
    }

    /**
     * @throws IllegalArgumentException naming the tools there are
     */
    public static Tool parse(String name) {
      String wanted = name == null ? "" : name.strip().toLowerCase(Locale.ROOT);
      return Arrays.stream(values()).filter(t -> t.value.equals(wanted)).findFirst()
          .orElseThrow(() -> new IllegalArgumentException("builder `" + name + "` is not one of "
              + Arrays.stream(values()).map(Tool::value).collect(Collectors.joining(", "))));
    }
  }

  /** The builder of a controller given no {@code --builder}: no build tool and no privilege (docs/functions.md). */
  public static final Tool DEFAULT_TOOL = Tool.LAYERED;

  public ImageBuilder {
    Objects.requireNonNull(tool, "tool");
    if (image == null || image.isBlank()) {
      throw new IllegalArgumentException("the " + tool.value() + " image must not be blank");
    }
    args = List.copyOf(Objects.requireNonNull(args, "args"));
  }

  /** The tool with its default image and arguments. */
  public static ImageBuilder of(Tool tool) {
    return new ImageBuilder(tool, tool.defaultImage, tool.defaultArgs);
  }

  /** The same tool from another image, such as a mirror's copy or one pinned by digest. */
  public ImageBuilder withImage(String other) {
    return new ImageBuilder(tool, other, args);
  }
}
