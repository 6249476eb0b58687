/**
 * The web dashboard: what the controller's informer caches hold about FunctionRepositories and Functions, as HTML
 * pages served on a port of their own. {@link io.gitfn.dashboard.Overview} and its rows are pure views of the
 * resources; the pages are jte templates in {@code src/main/jte}, compiled into {@code io.gitfn.dashboard.html} at
 * build time; {@link io.gitfn.dashboard.DashboardServer} serves them, read-only.
 */
package io.gitfn.dashboard;
