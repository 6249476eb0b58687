/**
 * Pure builders for a Function's image: the content key that names it, the Dockerfile and build context, and
 * the build Job. Nothing here talks to a cluster, Git or the network; the caller hands in what it read.
 */
package io.gitfn.build;
