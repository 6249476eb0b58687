package io.gitfn.build;

import io.gitfn.BuildInfo;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * How gitfn builds images, with the image its install Jobs pack with. There is one builder, layered
 * (docs/functions.md#layered-images): the controller assembles each image in-process from layers the registry holds,
 * and a Job with no privilege installs a dependency change, packing it with gitfn's own image ({@code gitfn pack}).
 *
 * @param tool the builder: layered
 * @param image the image of the install Jobs' {@code pack} container
 */
public record ImageBuilder(Tool tool, String image) {

  /** gitfn's own image, of this version, as the chart installs it. */
  public static final String GITFN_IMAGE = "ghcr.io/gitfn/gitfn:" + BuildInfo.load().gitfn();

  /** The builders gitfn had before the layered one, and what a flag that names one is told. */
  private static final List<String> REMOVED = List.of("buildah", "kaniko");

  /** How gitfn builds images. */
  public enum Tool {
    /**
     * No build tool: the controller assembles each image in-process from layers the registry holds, and a Job with
     * no privilege installs a dependency change (docs/functions.md#layered-images).
     */
    LAYERED("layered", GITFN_IMAGE);

    private final String value;
    private final String defaultImage;

    Tool(String value, String defaultImage) {
      this.value = value;
      this.defaultImage = defaultImage;
    }

    /** The name in flags and values: {@code layered}. */
    public String value() {
      return value;
    }

    public String defaultImage() {
      return defaultImage;
    }

    /**
     * @throws IllegalArgumentException naming the builder there is, and saying so when {@code name} is one that
     *     was removed
     */
    public static Tool parse(String name) {
      String wanted = name == null ? "" : name.strip().toLowerCase(Locale.ROOT);
      if (wanted.equals(LAYERED.value)) {
        return LAYERED;
      }
      if (REMOVED.contains(wanted)) {
        throw new IllegalArgumentException("builder `" + name + "` was removed: gitfn builds every image with the"
            + " layered builder, which needs no build tool and no privileged Pod; drop the setting"
            + " (docs/upgrading.md)");
      }
      throw new IllegalArgumentException("builder `" + name + "` is not one of " + LAYERED.value);
    }
  }

  /** The builder of a controller given no {@code --builder}. */
  public static final Tool DEFAULT_TOOL = Tool.LAYERED;

  public ImageBuilder {
    Objects.requireNonNull(tool, "tool");
    if (image == null || image.isBlank()) {
      throw new IllegalArgumentException("the " + tool.value() + " image must not be blank");
    }
  }

  /** The tool with its default image. */
  public static ImageBuilder of(Tool tool) {
    return new ImageBuilder(tool, tool.defaultImage);
  }

  /** The same tool from another image, such as a mirror's copy or one pinned by digest. */
  public ImageBuilder withImage(String other) {
    return new ImageBuilder(tool, other);
  }
}
