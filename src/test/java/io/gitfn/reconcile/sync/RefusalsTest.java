package io.gitfn.reconcile.sync;

import static io.gitfn.api.function.TestFunction.declared;
import static io.gitfn.source.TestRevision.revision;
import static org.assertj.core.api.Assertions.assertThat;

import io.gitfn.api.function.Function;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class RefusalsTest {

  @Test
  void anEmptyRevisionIsRefusedUnlessAllowed() {
    assertThat(Refusals.of(request(List.of(), false, Set.of())))
        .containsExactly("the revision yields no Functions; set spec.allowEmpty to prune them all");
    assertThat(Refusals.of(request(List.of(), true, Set.of()))).isEmpty();
  }

  @Test
  void aFunctionWithoutNamespaceGoesToTheRepositorysOwn() {
    SyncRequest request = request(List.of(declared("hello").build()), false, Set.of());

    assertThat(Refusals.of(request)).isEmpty();
    assertThat(Refusals.placement(request.desired().get(0), request)).isEqualTo(new FunctionKey("team-a", "hello"));
  }

  @Test
  void anotherNamespaceIsRefusedUnlessTheControllerAllowsIt() {
    List<Function> desired = List.of(declared("hello").build(), declared("elsewhere").inNamespace("team-b").build());

    assertThat(Refusals.of(request(desired, false, Set.of())))
        .containsExactly("Function team-b/elsewhere: namespace team-b is not the repository's namespace team-a, "
            + "and the controller does not allow it as a target namespace");
    assertThat(Refusals.of(request(desired, false, Set.of("team-b")))).isEmpty();
  }

  @Test
  void theSameFunctionTwiceIsRefused() {
    List<Function> desired = List.of(declared("hello").build(), declared("hello").inNamespace("team-a").build());

    assertThat(Refusals.of(request(desired, false, Set.of())))
        .containsExactly("Function team-a/hello is declared more than once");
  }

  @Test
  void aRepositoryWhoseLabelValueWouldBeTooLongIsRefused() {
    SyncRequest request = new SyncRequest(
        "team-a", "r".repeat(60), revision(1), List.of(declared("hello").build()), true, false, Set.of());

    assertThat(Refusals.of(request)).singleElement().asString().contains("not a valid label value");
  }

  @Test
  void everyProblemIsReportedAtOnce() {
    List<Function> desired = List.of(
        declared("a").inNamespace("x").build(), declared("b").inNamespace("y").build(), new Function());

    assertThat(Refusals.of(request(desired, false, Set.of()))).hasSize(3);
  }

  private static SyncRequest request(List<Function> desired, boolean allowEmpty, Set<String> allowed) {
    return new SyncRequest("team-a", "infra", revision(1), desired, true, allowEmpty, allowed);
  }
}
