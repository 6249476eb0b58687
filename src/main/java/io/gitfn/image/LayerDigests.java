package io.gitfn.image;

/**
 * What names a written layer: the digest of its compressed bytes (the blob a manifest lists), the digest of its
 * uncompressed tar (the {@code diff_id} an image config lists) and the compressed size.
 *
 * @param digest {@code sha256:} and 64 hex digits
 * @param diffId {@code sha256:} and 64 hex digits
 */
public record LayerDigests(String digest, String diffId, long size) {}
