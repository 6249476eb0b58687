/**
 * The Kyma-compatible {@code serverless.kyma-project.io/v1alpha2} Function resource. Pure types: the CRD in
 * {@code config/crd/} is generated from them, so their annotations are the schema and its validation rules.
 */
package io.gitfn.api.function;
