/**
 * Talking to OCI registries through jib-core's registry client: {@link io.gitfn.registry.ImageAssembler} puts new
 * layers on an image that a registry holds, mounting its layers instead of downloading them, and pushes the result.
 */
package io.gitfn.registry;
