package io.gitfn.local;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.gitfn.MutableClock;
import io.gitfn.api.Labels;
import io.gitfn.api.function.Function;
import io.gitfn.api.function.FunctionProgress;
import io.gitfn.api.function.FunctionRuntime;
import io.gitfn.api.function.TestFunction;
import io.gitfn.api.repository.FunctionRepository;
import io.gitfn.build.BuildSettings;
import io.gitfn.build.FunctionBuildPlan;
import io.gitfn.source.CommitSummary;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** What gitfn up shows on its dashboard: its source as a repository, its Functions with the versions they ran. */
class LocalStateTest {

  private static final KubernetesSerialization JSON = new KubernetesSerialization();
  private final MutableClock clock = new MutableClock(Instant.parse("2026-11-26T10:00:00Z"));
  private final LocalState state = new LocalState(clock);

  @Test
  void theFollowedSourceIsARepositoryWithItsRevisionsAndTheirCommits() {
    state.following("file:///work/infra.git", "main", "functions");
    state.fetched("main@sha1:1");
    state.applied("main@sha1:1", Optional.of(new CommitSummary("Add hello", "Ada", Instant.EPOCH)),
        List.of(hello("v1")));
    state.fetched("main@sha1:2");
    state.invalid("main@sha1:2", Optional.empty(), "revision main@sha1:2 is invalid; what runs stays: x");

    FunctionRepository repository = state.repositories().iterator().next();

    assertThat(repository.getMetadata().getNamespace() + "/" + repository.getMetadata().getName())
        .isEqualTo("local/up");
    assertThat(repository.getSpec().getUrl()).isEqualTo("file:///work/infra.git");
    assertThat(repository.getSpec().getRef().getBranch()).isEqualTo("main");
    assertThat(repository.getStatus().getLastFetchedRevision()).isEqualTo("main@sha1:2");
    assertThat(repository.getStatus().getLastAppliedRevision()).isEqualTo("main@sha1:1");
    assertThat(repository.getStatus().getConditions()).singleElement()
        .satisfies(c -> assertThat(c.getReason()).isEqualTo("InvalidRevision"));
    assertThat(repository.getStatus().getHistory()).extracting("outcome", "message", "author", "created")
        .containsExactly(org.assertj.core.groups.Tuple.tuple("Failed", null, null, 0),
            org.assertj.core.groups.Tuple.tuple("Applied", "Add hello", "Ada", 1));
  }

  @Test
  void aFunctionRunsOnceItsProcessServesAndARevertedKeyIsReused() {
    state.applied("main@sha1:1", Optional.empty(), List.of(hello("v1")));
    LocalRelease v1 = release(hello("v1"));
    assertThat(phase()).as("declared, not started").isEqualTo(FunctionProgress.Phase.ROLLING_OUT);

    state.starting(v1);
    clock.advance(Duration.ofSeconds(2));
    state.serving(v1, "http://localhost:8080/hello");
    assertThat(phase()).isEqualTo(FunctionProgress.Phase.RUNNING);

    state.applied("main@sha1:2", Optional.empty(), List.of(hello("v2")));
    LocalRelease v2 = release(hello("v2"));
    state.failed(v2, "did not start, so the version before serves on: it crashed", true);
    state.applied("main@sha1:3", Optional.empty(), List.of(hello("v1")));
    state.serving(v1, "http://localhost:8080/hello");

    Function fn = state.functions().iterator().next();
    assertThat(fn.getMetadata().getLabels()).containsEntry(Labels.REPOSITORY, "local.up");
    assertThat(fn.getStatus().getHistory()).extracting("outcome", "revision")
        .containsExactly(org.assertj.core.groups.Tuple.tuple("Reused", "main@sha1:3"),
            org.assertj.core.groups.Tuple.tuple("Failed", "main@sha1:2"),
            org.assertj.core.groups.Tuple.tuple("Succeeded", "main@sha1:1"));
    assertThat(fn.getStatus().getHistory().get(0).getRolledOut()).isNotNull();
  }

  @Test
  void aFunctionThatCannotRunSaysWhyAndOneNoLongerDeclaredIsGone() {
    state.applied("main@sha1:1", Optional.empty(), List.of(hello("v1")));
    state.unrunnable("default/hello", "git source unreachable");

    assertThat(phase()).isEqualTo(FunctionProgress.Phase.FAILED);
    state.applied("main@sha1:2", Optional.empty(), List.of());
    assertThat(state.functions()).isEmpty();
    assertThat(state.repositories().iterator().next().getStatus().getHistory().get(0).getDeleted()).isEqualTo(1);
  }

  @Test
  void theRepositoryIsReadyOnlyWhenItsFunctionsRunAsTheControllerJudgesIt() {
    state.applied("main@sha1:1", Optional.empty(), List.of(hello("v1")));
    assertThat(ready()).as("applied, not started").containsExactly("Unknown", "RollingOut");

    state.unrunnable("default/hello", "git source unreachable: UNKNOWN_HOST orders.invalid");
    assertThat(ready()).containsExactly("False", "FunctionsFailed");
    assertThat(readyMessage()).endsWith("1 of 1 Functions failed: default/hello: git source unreachable: "
        + "UNKNOWN_HOST orders.invalid");
    assertThat(state.repositories().iterator().next().getStatus().getPending()).extracting("name")
        .containsExactly("hello");

    LocalRelease v1 = release(hello("v1"));
    state.starting(v1);
    state.serving(v1, "http://localhost:8080/hello");
    assertThat(ready()).containsExactly("True", "Succeeded");
    assertThat(readyMessage()).isEqualTo("revision main@sha1:1 runs: 1 Function ready");
  }

  @Test
  void nothingChangesBetweenTwoLooksWhenNothingHappened() {
    state.applied("main@sha1:1", Optional.empty(), List.of(hello("v1")));
    state.unreadable("cannot read the source: gone");
    String before = JSON.asJson(List.of(state.repositories(), state.functions()));

    clock.advance(Duration.ofMinutes(1));
    state.unreadable("cannot read the source: gone");

    assertThat(JSON.asJson(List.of(state.repositories(), state.functions()))).as("the pages' versions stay")
        .isEqualTo(before);
  }

  private List<String> ready() {
    var ready = state.repositories().iterator().next().getStatus().getConditions().get(0);
    return List.of(ready.getStatus(), ready.getReason());
  }

  private String readyMessage() {
    return state.repositories().iterator().next().getStatus().getConditions().get(0).getMessage();
  }

  private FunctionProgress.Phase phase() {
    return FunctionProgress.of(state.functions().iterator().next()).phase();
  }

  private static Function hello(String version) {
    return TestFunction.inline().named("hello").inNamespace(null).uid(null).runtime(FunctionRuntime.NODEJS22)
        .code("module.exports = { main: () => '" + version + "' };\n").build();
  }

  private static LocalRelease release(Function fn) {
    try {
      return LocalRelease.of(fn, FunctionBuildPlan.ofInline(fn, BuildSettings.defaults()), FolderConfigMaps.none(),
          new ArrayList<>());
    } catch (io.gitfn.build.BuildContextTooLargeException | LocalException e) {
      throw new IllegalStateException(e);
    }
  }
}
