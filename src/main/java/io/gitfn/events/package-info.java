/**
 * Kubernetes Events about gitfn's resources, shared by the reconcilers and the dashboard's actions, so that
 * {@code kubectl describe} and {@code kubectl events} tell what the controller did and what a person asked of it.
 */
package io.gitfn.events;
