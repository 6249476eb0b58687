/**
 * The pure rules of pull-request previews (issue 32): a preview applies a pull request's head revision of an infra
 * repository into a namespace of its own, {@code <repository-namespace>-pr-<number>}.
 *
 * <p>{@link io.gitfn.preview.HostTemplate} reads a FunctionRepository's {@code spec.previews.host} and fills it for one
 * route; {@link io.gitfn.preview.PreviewRoutes} gives each declared route that host, so that a preview never answers
 * for production's hosts, and names the URL a commit status and a pull-request comment link to. Nothing here reads a
 * file, talks to a cluster or to a forge: the reconciler does, with what these classes compute.
 */
package io.gitfn.preview;
