package io.gitfn.reconcile.function;

import io.gitfn.reconcile.Step;

/** A step of a Function's pass, and the condition its failure shows on. */
interface FunctionStep extends Step<FunctionState> {

  /** ConfigurationReady, BuildReady or Running: the part of Kyma's status this step answers for. */
  String condition();
}
