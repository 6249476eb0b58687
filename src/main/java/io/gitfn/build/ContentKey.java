package io.gitfn.build;

import io.gitfn.api.function.Function;
import io.gitfn.api.function.FunctionRuntime;
import io.gitfn.api.function.InlineSource;
import io.gitfn.api.function.Source;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * The name of a Function's image content: a SHA-256 over everything that goes into the image, and nothing else.
 *
 * <p>It covers the image layout's version ({@link #TEMPLATE_VERSION}), the runtime, the digest of gitfn's runtime server files that go
 * into the image, the effective base image and the source: for an inline source its text and dependencies, for a
 * Git source the tree id of {@code baseDir}. Unlike Kyma's tag
 * (§2.6) it leaves out the Function's UID and name, so the same content in two Functions, or in a recreated
 * Function, or after a commit that leaves {@code baseDir} untouched, gives the same key and needs no build.
 *
 * @param value 64 lower-case hex digits
 */
public record ContentKey(String value) {

  private static final Pattern HEX64 = Pattern.compile("[0-9a-f]{64}");

  /**
   * How many hex digits of the key an image tag and a label carry. 128 bits make an accidental collision
   * negligible, and the tag fits a label value, which may have at most 63 characters.
   */
  public static final int TAG_LENGTH = 32;

  /**
   * The version of the image layout, part of every key: change it whenever gitfn lays out the same content into a
   * different image, so that every Function is built again. (A change to the runtime's files changes the keys by
   * itself: the key covers their digest.) Version 2 was the last Dockerfile template's, kept so that keys stayed
   * when buildah and kaniko went.
   */
  public static final int TEMPLATE_VERSION = 2;

  public ContentKey {
    Objects.requireNonNull(value, "value");
    if (!HEX64.matcher(value).matches()) {
      throw new IllegalArgumentException("a content key is 64 lower-case hex digits, not `" + value + "`");
    }
  }

  /** The key of a Function with an inline source. */
  public static ContentKey ofInline(Function fn, BuildSettings settings) {
    InlineSource inline = source(fn).getInline();
    if (inline == null) {
      throw new IllegalArgumentException(describe(fn) + " has no inline source");
    }
    FunctionRuntime runtime = fn.getSpec().getRuntime();
    return compute(runtime, settings, baseImage(fn, settings), "inline",
        Objects.requireNonNullElse(inline.getSource(), ""),
        RuntimeFiles.normalisedDependencies(runtime, inline.getDependencies()));
  }

  /**
   * The key of a Function with a Git source.
   *
   * @param baseDirTreeId the Git tree id of the Function's baseDir at the resolved commit, read by the caller
   */
  public static ContentKey ofGitTree(Function fn, String baseDirTreeId, BuildSettings settings) {
    if (source(fn).getGitRepository() == null) {
      throw new IllegalArgumentException(describe(fn) + " has no Git source");
    }
    if (baseDirTreeId == null || baseDirTreeId.isBlank()) {
      throw new IllegalArgumentException(describe(fn) + ": the tree id of baseDir is required");
    }
    return compute(fn.getSpec().getRuntime(), settings, baseImage(fn, settings), "git-tree", baseDirTreeId);
  }

  /** The image a Function builds on: its runtimeImageOverride, else its runtime's default. */
  public static String baseImage(Function fn, BuildSettings settings) {
    String override = fn.getSpec().getRuntimeImageOverride();
    return override != null && !override.isBlank() ? override : settings.baseImage(fn.getSpec().getRuntime());
  }

  /**
   * A key for another use of the same inputs, such as the source ConfigMap of a buildless Pod: SHA-256 over a
   * purpose, its version and this key. Everything this key covers (runtime, runtime files, base image, source)
   * moves the derived key too, and no derived key equals an image key, so an image and a buildless source of the
   * same content never share a name.
   */
  public ContentKey derive(String purpose, int version) {
    MessageDigest sha256 = sha256();
    field(sha256, "gitfn-derived-key");
    field(sha256, purpose);
    field(sha256, Integer.toString(version));
    field(sha256, value);
    return new ContentKey(HexFormat.of().formatHex(sha256.digest()));
  }

  /** The first {@link #TAG_LENGTH} hex digits: the image tag and the {@code gitfn.io/content-key} label value. */
  public String tag() {
    return value.substring(0, TAG_LENGTH);
  }

  @Override
  public String toString() {
    return value;
  }

  private static ContentKey compute(FunctionRuntime runtime, BuildSettings settings, String baseImage,
      String... source) {
    Objects.requireNonNull(runtime, "runtime");
    MessageDigest sha256 = sha256();
    // Each field is length-prefixed, so no two different field lists hash the same bytes.
    field(sha256, "gitfn-content-key");
    field(sha256, Integer.toString(TEMPLATE_VERSION));
    field(sha256, runtime.value());
    // A new gitfn with a changed runtime server rebuilds the images that carry the old one.
    field(sha256, settings.runtimes().of(runtime).digest());
    field(sha256, baseImage);
    for (String part : source) {
      field(sha256, part);
    }
    return new ContentKey(HexFormat.of().formatHex(sha256.digest()));
  }

  static void field(MessageDigest digest, String text) {
    byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
    digest.update((bytes.length + ":").getBytes(StandardCharsets.US_ASCII));
    digest.update(bytes);
  }

  static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java platform has SHA-256", e);
    }
  }

  private static Source source(Function fn) {
    Source source = fn.getSpec().getSource();
    if (source == null) {
      throw new IllegalArgumentException(describe(fn) + " has no source");
    }
    return source;
  }

  static String describe(Function fn) {
    return "Function " + fn.getMetadata().getNamespace() + "/" + fn.getMetadata().getName();
  }
}
