package io.gitfn.secrets.sops;

/**
 * How much of a SOPS file gitfn reads at all. A file from Git is the pusher's to shape, so these are checked on the
 * raw bytes and on SnakeYAML's event stream, before any tree is built or anything is decrypted.
 *
 * @param maxBytes the file's size in bytes (a Secret's data is at most 1 MiB in Kubernetes)
 * @param maxValues scalar values (not keys), the {@code sops} block's included
 * @param maxDepth nested mappings and sequences
 */
public record SopsLimits(int maxBytes, int maxValues, int maxDepth) {

  /** 1 MiB, 1,000 values, 16 levels: a Secret is two levels deep, its metadata block four. */
  public static final SopsLimits DEFAULT = new SopsLimits(1024 * 1024, 1000, 16);

  public SopsLimits {
    if (maxBytes < 1 || maxValues < 1 || maxDepth < 1) {
      throw new IllegalArgumentException("SOPS limits are positive");
    }
  }
}
