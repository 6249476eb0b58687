package io.gitfn.reconcile;

import java.util.ArrayList;
import java.util.List;

/**
 * A kind's step list, in the order the steps run, and what a failure does to the rest of it.
 *
 * <p>By default the first step that fails or stops ends the list, as Flux's reconcilers do: a FunctionRepository
 * applies nothing after its source failed. A list made {@link #goingOnAfterFailures} lets every step run, each with
 * what the steps before it left (a Function whose build failed still has its running Deployment watched). The steps
 * declared with {@link #always} run last whatever happened, since they report on the pass.
 *
 * @param <S> the state of one pass of the kind
 */
public record Steps<S>(List<Step<S>> main, List<Step<S>> always, boolean goOnAfterFailure) {

  public Steps {
    main = List.copyOf(main);
    always = List.copyOf(always);
  }

  @SafeVarargs
  public static <S> Steps<S> of(Step<S>... steps) {
    return new Steps<>(List.of(steps), List.of(), false);
  }

  /** These steps, then {@code reports}, which run even after a failure or a stop. */
  @SafeVarargs
  public final Steps<S> always(Step<S>... reports) {
    List<Step<S>> all = new ArrayList<>(always);
    all.addAll(List.of(reports));
    return new Steps<>(main, all, goOnAfterFailure);
  }

  /** The same steps, each of which runs after one before it failed; a stop still ends the list. */
  public Steps<S> goingOnAfterFailures() {
    return new Steps<>(main, always, true);
  }
}
