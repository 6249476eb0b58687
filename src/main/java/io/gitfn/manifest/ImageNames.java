package io.gitfn.manifest;

import java.util.regex.Pattern;

/** What a base image's name may be: the rule {@code spec.runtimeImageOverride} and {@code --base-image} share. */
public final class ImageNames {

  // An image reference as registries write them: it goes into the build's Dockerfile, where a newline would start an
  // instruction of the tenant's own (one could copy the platform's package-registry credentials into the image).
  private static final Pattern IMAGE = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._/:@+-]{0,254}");

  private ImageNames() {
  }

  /** True when {@code image} has only an image reference's characters (letters, digits, . _ / : @ + -), at most 255. */
  public static boolean isReference(String image) {
    return image != null && IMAGE.matcher(image).matches();
  }
}
