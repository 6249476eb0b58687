package io.gitfn.reconcile.repository;

import static org.assertj.core.api.Assertions.assertThat;

import io.gitfn.api.repository.AppliedObject;
import io.gitfn.api.repository.FunctionRepositoryStatus;
import io.gitfn.api.repository.InventoryEntry;
import io.gitfn.api.repository.LastSync;
import io.gitfn.reconcile.sync.SyncResult;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * When a full sync only confirms the one before it, status keeps that sync's record, so that the periodic sync of a
 * repository at rest writes nothing. Reading and applying a revision is proven against a real API server
 * (FunctionRepositoryIT and the rest); this is the decision between the two.
 */
class RevisionStepTest {

  private static final String REVISION = "main@sha1:" + "1".repeat(40);
  private static final LastSync NOW = new LastSync("2026-11-27T12:10:00Z", 2L, "sha256:aa");

  @Test
  void aSyncOfTheSameRevisionThatChangedNothingStands() {
    RevisionStep.Applied before = applied(REVISION, 4L, new LastSync("2026-11-27T12:00:00Z", 2L, "sha256:aa"));

    assertThat(RevisionStep.stands(before, applied(REVISION, 4L, null), NOW, nothingChanged())).isTrue();
  }

  @Test
  void anythingNewIsRecordedAsANewSync() {
    LastSync last = new LastSync("2026-11-27T12:00:00Z", 2L, "sha256:aa");
    RevisionStep.Applied before = applied(REVISION, 4L, last);

    assertThat(RevisionStep.stands(before, applied("main@sha1:" + "2".repeat(40), 4L, null), NOW, nothingChanged()))
        .as("another revision").isFalse();
    assertThat(RevisionStep.stands(before, applied(REVISION, 5L, null), NOW, nothingChanged()))
        .as("a Function at another generation").isFalse();
    assertThat(RevisionStep.stands(before, applied(REVISION, 4L, null), NOW, new SyncResult(List.of(),
        List.of("shop/hello"), List.of(), List.of(), 1, List.of()))).as("a Function set back").isFalse();
    assertThat(RevisionStep.stands(before, applied(REVISION, 4L, null), new LastSync(NOW.getTime(), 3L, "sha256:aa"),
        nothingChanged())).as("another generation of the repository").isFalse();
    assertThat(RevisionStep.stands(before, applied(REVISION, 4L, null), new LastSync(NOW.getTime(), 2L, "sha256:bb"),
        nothingChanged())).as("other labels").isFalse();
    assertThat(RevisionStep.stands(applied(REVISION, 4L, null), applied(REVISION, 4L, null), NOW, nothingChanged()))
        .as("no sync recorded yet").isFalse();
    FunctionRepositoryStatus moved = status(REVISION, 4L, last);
    moved.setObjects(List.of(new AppliedObject("gateway.networking.k8s.io/v1", "HTTPRoute", "hello",
        "functions/routes/hello.yaml")));
    FunctionRepositoryStatus was = status(REVISION, 4L, last);
    was.setObjects(List.of(new AppliedObject("gateway.networking.k8s.io/v1", "HTTPRoute", "hello",
        "functions/hello-route.yaml")));
    assertThat(RevisionStep.stands(RevisionStep.Applied.of(was), RevisionStep.Applied.of(moved), NOW,
        nothingChanged())).as("a route whose file was renamed, its content the same").isFalse();
    assertThat(RevisionStep.stands(applied(REVISION, 4L, new LastSync("yesterday", 2L, "sha256:aa")),
        applied(REVISION, 4L, null), NOW, nothingChanged())).as("a time that does not parse is written anew").isFalse();
  }

  private static SyncResult nothingChanged() {
    return new SyncResult(List.of(), List.of(), List.of(), List.of("shop/hello"), 0, List.of());
  }

  private static RevisionStep.Applied applied(String revision, long generation, LastSync last) {
    return RevisionStep.Applied.of(status(revision, generation, last));
  }

  private static FunctionRepositoryStatus status(String revision, long generation, LastSync last) {
    FunctionRepositoryStatus status = new FunctionRepositoryStatus();
    status.setLastAppliedRevision(revision);
    InventoryEntry hello = new InventoryEntry("hello", "shop");
    hello.setGeneration(generation);
    status.setInventory(List.of(hello));
    status.setLastSync(last);
    return status;
  }
}
