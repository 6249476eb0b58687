package io.gitfn.build;

/** A Function's build context does not fit in a ConfigMap. It is an invalid spec: retrying cannot help. */
public class BuildContextTooLargeException extends Exception {

  private final long size;

  /**
   * @param size the whole context's bytes
   * @param runtimeSize the bytes of gitfn's runtime server in it, which the user cannot shrink
   */
  public BuildContextTooLargeException(String function, long size, long runtimeSize) {
    super(function + ": the build context is " + size + " bytes, over the ConfigMap limit of "
        + BuildContext.LIMIT + " bytes (1 MiB); make the handler or its dependency file smaller (gitfn's runtime server takes "
        + runtimeSize + " bytes of it)");
    this.size = size;
  }

  public long size() {
    return size;
  }
}
