package io.gitfn.registry;

import io.gitfn.image.LayerDigests;
import io.gitfn.image.LayerEntry;

/**
 * A layer written by {@link io.gitfn.image.ReproducibleLayer}, ready to push.
 *
 * @param content opens the compressed bytes whose digests {@code digests} holds; opened only when the registry
 *     lacks the blob
 * @param createdBy what the image's history says made it
 */
public record NewLayer(LayerDigests digests, LayerEntry.Content content, String createdBy) {}
