/**
 * Pure builders of a Function's runtime children: the Deployment, the Service and the HPA, and the labels and
 * owner reference they share. Nothing here talks to a cluster; the reconciler and {@code gitfn render} call the
 * same code, so what render prints is what gets applied.
 */
package io.gitfn.workload;
