/**
 * Images as stacks of content-keyed layers: reproducible layer tars ({@link io.gitfn.image.ReproducibleLayer}),
 * their digests, and the limits that bound them. Pure: it reads and writes the streams it is given, and opens no
 * file, socket or process.
 */
package io.gitfn.image;
