package io.gitfn.build;

/** A Function's build context does not fit in a ConfigMap. It is an invalid spec: retrying cannot help. */
public class BuildContextTooLargeException extends Exception {

  private final long size;

  public BuildContextTooLargeException(String function, long size) {
    super(function + ": the build context is " + size + " bytes, over the ConfigMap limit of "
        + BuildContext.LIMIT + " bytes (1 MiB); make the handler or its dependency file smaller");
    this.size = size;
  }

  public long size() {
    return size;
  }
}
