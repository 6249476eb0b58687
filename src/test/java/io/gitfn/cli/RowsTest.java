package io.gitfn.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.gitfn.api.function.Function;
import io.gitfn.api.function.FunctionStatus;
import io.gitfn.api.function.TestFunction;
import io.gitfn.api.repository.FunctionRepository;
import io.gitfn.api.repository.SyncRecord;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The rows of {@code gitfn get} and {@code gitfn history}, from objects as the API server returns them. */
class RowsTest {

  private static final Instant NOW = Instant.parse("2026-03-01T12:00:00Z");
  private static final KubernetesSerialization YAML = new KubernetesSerialization();

  private static FunctionRepository repository() {
    return YAML.unmarshal("""
        apiVersion: gitfn.io/v1alpha1
        kind: FunctionRepository
        metadata: {name: infra, namespace: shop, creationTimestamp: "2026-03-01T11:57:00Z"}
        spec: {url: "https://git.example/infra.git", ref: {branch: main}, path: functions}
        status:
          lastAppliedRevision: main@sha1:0123456789abcdef0123456789abcdef01234567
          conditions:
            - {type: Ready, status: "True", reason: Applied, message: "applied main@sha1:0123456789abcdef0123456789abcdef01234567: 2 Functions"}
          lastWebhook: {forge: github, deliveryId: d-1, time: "2026-03-01T11:59:15Z"}
        """, FunctionRepository.class);
  }

  @Test
  void aPreviewRowShowsItsPullRequestPhaseHeadUrlAndAges() {
    FunctionRepository infra = YAML.unmarshal("""
        apiVersion: gitfn.io/v1alpha1
        kind: FunctionRepository
        metadata: {name: infra, namespace: shop}
        spec: {url: "https://git.example/infra.git"}
        status:
          previews:
            - {number: 42, headSha: 5f1c0e1b0d1f4c6a9e2b7d8c3a4f5e6d7c8b9a0f, namespace: shop-pr-42, phase: Running,
               url: "http://orders-pr-42.preview.example.com/", createdAt: "2026-03-01T11:00:00Z",
               pushedAt: "2026-03-01T11:58:00Z", message: runs 5f1c0e1}
            - {number: 7, phase: Stopped}
        """, FunctionRepository.class);

    List<PreviewRow> rows = PreviewRow.of(infra, NOW);

    assertThat(PreviewRow.header(true, true)).containsExactly("NAMESPACE", "REPOSITORY", "PR", "PHASE", "HEAD", "URL",
        "AGE", "LAST-PUSH", "PREVIEW-NAMESPACE", "MESSAGE");
    assertThat(rows.get(0).cells(true, true)).containsExactly("shop", "infra", "#42", "Running", "5f1c0e1",
        "http://orders-pr-42.preview.example.com/", "1h", "2m", "shop-pr-42", "runs 5f1c0e1");
    assertThat(rows.get(1).cells(false, false)).containsExactly("infra", "#7", "Stopped", "<none>", "<none>",
        "<unknown>", "<unknown>");
  }

  @Test
  void aRepositoryRowShowsRevisionReadinessAndAShortenedMessage() {
    RepositoryRow row = RepositoryRow.of(repository(), NOW);

    assertThat(row.cells(false, false)).containsExactly("infra", "https://git.example/infra.git",
        "main@sha1:0123456789abcdef0123456789abcdef01234567", "True",
        "applied main@sha1:0123456789abcdef0123456789abcdef01234567:…", "3m");
    assertThat(row.status()).hasSize(RepositoryRow.STATUS_WIDTH);
  }

  @Test
  void wideAndAllNamespacesAddTheirColumns() {
    RepositoryRow row = RepositoryRow.of(repository(), NOW);

    assertThat(RepositoryRow.header(true, true)).containsExactly("NAMESPACE", "NAME", "URL", "REVISION", "READY",
        "STATUS", "AGE", "REF", "PATH", "LAST-WEBHOOK");
    assertThat(row.cells(true, true)).startsWith("shop").endsWith("branch:main", "functions", "github 45s ago");
  }

  @Test
  void aRepositoryWithoutStatusIsUnknown() {
    FunctionRepository fresh = repository();
    fresh.setStatus(null);

    RepositoryRow row = RepositoryRow.of(fresh, NOW);

    assertThat(row.revision()).isEqualTo("<none>");
    assertThat(row.ready()).isEqualTo("Unknown");
    assertThat(row.status()).isEmpty();
    assertThat(row.lastWebhook()).isEqualTo("<none>");
  }

  @Test
  void aFunctionRowShowsItsConditionsAndItsRepository() {
    Function function = TestFunction.inline().named("hello").uid(null).code("x")
        .metadataLabel("gitfn.io/repository", "shop.infra").build();
    function.getMetadata().setCreationTimestamp("2026-02-25T12:00:00Z");
    FunctionStatus status = new FunctionStatus();
    status.setConditions(List.of(condition("ConfigurationReady", "True"), condition("BuildReady", "False")));
    function.setStatus(status);

    assertThat(FunctionRow.of(function, NOW).cells(false))
        .containsExactly("hello", "nodejs22", "True", "False", "Unknown", "shop.infra", "<none>", "<none>", "4d");
    assertThat(FunctionRow.header(false)).containsExactly("NAME", "RUNTIME", "CONFIGURED", "BUILT", "RUNNING",
        "REPOSITORY", "PINNED", "ROLLED-BACK", "AGE");

    status.setRollback(new io.gitfn.api.function.AutoRollback());
    status.getRollback().setRestoredRevision("main@sha1:0123456789abcdef0123456789abcdef01234567");
    assertThat(FunctionRow.of(function, NOW).rolledBack()).as("what runs instead of the spec")
        .isEqualTo("to main@sha1:0123456");
    assertThat(FunctionRow.header(true)).first().isEqualTo("NAMESPACE");
  }

  @Test
  void aPinShowsShortFromTheAnnotationUntilTheStatusReportsIt() {
    Function function = TestFunction.inline().named("hello").uid(null).code("x")
        .metadataAnnotation("gitfn.io/pinned-revision", "main@sha1:0123456789abcdef0123456789abcdef01234567").build();

    assertThat(FunctionRow.of(function, NOW).pinned()).isEqualTo("main@sha1:0123456");

    function.setStatus(new FunctionStatus());
    function.getStatus().setPinnedRevision("release/1.x@sha1:fedcba9876543210fedcba9876543210fedcba98");
    assertThat(FunctionRow.of(function, NOW).pinned()).as("the status says what runs").isEqualTo("release/1.x@sha1:fedcba9");

    function.getStatus().setPinnedRevision("inline");
    assertThat(FunctionRow.of(function, NOW).pinned()).isEqualTo("inline");
  }

  @Test
  void historyIsNewestFirstWithZeroForMissingCounts() {
    SyncRecord older = record("main@sha1:aaa", "2026-03-01T10:00:00Z", 2);
    SyncRecord newer = record("main@sha1:bbb", "2026-03-01T11:00:00.5Z", null);

    List<SyncRecord> sorted = HistoryRepositoryCommand.newestFirst(List.of(older, newer));

    assertThat(sorted).containsExactly(newer, older);
    assertThat(HistoryRow.of(newer).cells())
        .containsExactly("main@sha1:bbb", "2026-03-01T11:00:00.5Z", "Applied", "0", "0", "0", "<none>", "<none>");
    assertThat(HistoryRow.of(older).created()).isEqualTo("2");
    older.setMessage("Add bye\n\nIt waves.");
    assertThat(HistoryRow.of(older).message()).as("the first line, marked as cut").isEqualTo("Add bye…");
  }

  private static SyncRecord record(String revision, String time, Integer created) {
    SyncRecord record = new SyncRecord();
    record.setRevision(revision);
    record.setTime(time);
    record.setOutcome("Applied");
    record.setCreated(created);
    return record;
  }

  private static Condition condition(String type, String status) {
    return new ConditionBuilder().withType(type).withStatus(status).withReason("R").withMessage("m").build();
  }
}
