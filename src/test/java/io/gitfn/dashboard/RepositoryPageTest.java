package io.gitfn.dashboard;

import static io.gitfn.dashboard.DashboardServerTest.preview;
import static io.gitfn.dashboard.DashboardServerTest.repository;
import static org.assertj.core.api.Assertions.assertThat;

import io.gitfn.api.repository.FunctionRepository;
import io.gitfn.api.repository.Preview;
import io.gitfn.api.repository.PreviewOf;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** A repository's page as a record: its previews, and on a preview's own repository, what it previews. */
class RepositoryPageTest {

  @Test
  void previewsAreListedByNumberWithTheirShortShaAgesAndOwnRepositorysPage() {
    FunctionRepository repository = repository("shop", "infra", null, "True", "Succeeded", "runs");
    repository.getStatus().setPreviews(List.of(
        preview(12, "Running", "https://hello-pr-12.preview.example.com", "2026-11-26T09:00:00Z"),
        preview(3, "Stopped", null, "2026-11-25T09:00:00Z")));

    List<PreviewSummary> previews = page(repository).previews();

    assertThat(previews).extracting(PreviewSummary::pullRequest).containsExactly("#3", "#12");
    PreviewSummary twelve = previews.get(1);
    assertThat(twelve.shortSha()).isEqualTo("0123456");
    assertThat(twelve.headRef()).isEqualTo("feature/pr-12");
    assertThat(twelve.createdAt()).isEqualTo(Instant.parse("2026-11-26T09:00:00Z"));
    assertThat(twelve.pushedAt()).isEqualTo(Instant.parse("2026-11-26T10:00:00Z"));
    assertThat(twelve.repositoryPath()).as("beside its parent").isEqualTo("/repositories/shop/infra-pr-12");
    assertThat(twelve.link()).isEqualTo("https://hello-pr-12.preview.example.com");
    assertThat(previews).extracting(PreviewSummary::css).containsExactly("suspended", "ready");
  }

  @Test
  void theStatesOfAPreviewWearTheRepositorysColours() {
    assertThat(List.of("Pending", "Running", "Failed", "Stopped", "Exploded"))
        .map(phase -> summary(preview(1, phase, null, null)).css())
        .containsExactly("reconciling", "ready", "failed", "suspended", "unknown");
  }

  @Test
  void onlyAWebAddressIsALink() {
    assertThat(summary(preview(1, "Running", "HTTPS://Preview.example.com", null)).link())
        .isEqualTo("HTTPS://Preview.example.com");
    assertThat(summary(preview(1, "Running", "http://hello.shop-pr-1.svc.cluster.local", null)).link())
        .isEqualTo("http://hello.shop-pr-1.svc.cluster.local");
    assertThat(summary(preview(1, "Running", "javascript:alert(1)", null)).link()).isNull();
    assertThat(summary(preview(1, "Running", "JavaScript:alert(1)//https://x", null)).link()).isNull();
    assertThat(summary(preview(1, "Running", "data:text/html,<script>alert(1)</script>", null)).link()).isNull();
    assertThat(summary(preview(1, "Running", "//elsewhere.example", null)).link()).isNull();
    assertThat(summary(preview(1, "Running", null, null)).link()).isNull();
  }

  @Test
  void aPreviewWithoutTimesOrNumberHasNoAgesAndDoesNotFail() {
    FunctionRepository repository = repository("shop", "infra", null, "True", "Succeeded", "runs");
    Preview garbled = preview(2, "Pending", null, "last Tuesday");
    garbled.setPushedAt(null);
    repository.getStatus().setPreviews(List.of(new Preview(), garbled));

    List<PreviewSummary> previews = page(repository).previews();

    assertThat(previews).extracting(PreviewSummary::pullRequest).containsExactly("#2", "#?");
    assertThat(previews).allSatisfy(p -> {
      assertThat(p.createdAt()).isNull();
      assertThat(p.pushedAt()).isNull();
    });
    PreviewSummary empty = previews.get(1);
    assertThat(empty.phase()).isEqualTo("Unknown");
    assertThat(empty.shortSha()).isNull();
    assertThat(empty.repositoryPath()).isNull();
    assertThat(page(repository).version()).as("its version can be taken").isNotEmpty();
  }

  @Test
  void aPreviewsRepositoryThatIsNoKubernetesNameGetsNoPage() {
    Preview preview = preview(4, "Running", null, null);
    preview.setRepository("../../functions/shop/hello");

    assertThat(summary(preview).repositoryPath()).isNull();
  }

  @Test
  void aRepositoryWithoutPreviewsListsNone() {
    assertThat(page(repository("shop", "infra", null, "True", "Succeeded", "runs")).previews()).isEmpty();
  }

  @Test
  void aPreviewsOwnRepositoryNamesThePullRequestAndTheRepositoryItPreviews() {
    FunctionRepository own = repository("shop", "infra-pr-12", null, "True", "Succeeded", "runs");
    own.getSpec().setPreviewOf(new PreviewOf("infra", 12L, "shop-pr-12", "feature/pr-12", null));
    FunctionRepository parent = repository("shop", "infra", null, "True", "Succeeded", "runs");

    assertThat(page(own).repository().previewOf())
        .isEqualTo(new RepositorySummary.Previewed("infra", 12, "/repositories/shop/infra"));
    assertThat(page(parent).repository().previewOf()).isNull();
    assertThat(Overview.of(List.of(own, parent), List.of()).repositories())
        .as("listed like any other repository").hasSize(2)
        .filteredOn(r -> r.previewOf() != null).extracting(RepositorySummary::name).containsExactly("infra-pr-12");
  }

  private static RepositoryPage page(FunctionRepository repository) {
    return RepositoryPage.of(repository, List.of(), fn -> Optional.empty());
  }

  private static PreviewSummary summary(Preview preview) {
    return PreviewSummary.of("shop", preview);
  }
}
