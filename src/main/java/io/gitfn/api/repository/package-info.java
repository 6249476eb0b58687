/**
 * The {@code gitfn.io/v1alpha1} FunctionRepository resource: an infra repository, or a folder of one, whose
 * Function manifests gitfn applies and prunes. Pure types; the CRD in {@code config/crd/} is generated from them.
 */
package io.gitfn.api.repository;
