/**
 * What a person asks of the controller through the API server ({@link io.gitfn.request.ControllerRequests}), written
 * the same way by {@code gitfn reconcile}, {@code suspend}, {@code resume} and {@code rollback --pin}, and by the
 * dashboard's actions.
 */
package io.gitfn.request;
