/**
 * Pure builders for a Function's image: the content key that names it, the files it is made of, the layers'
 * keys, and the install Job that makes a dependency image. Nothing here talks to a cluster, Git or the network; the
 * caller hands in what it read.
 */
package io.gitfn.build;
