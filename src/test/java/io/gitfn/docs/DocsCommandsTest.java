package io.gitfn.docs;

import static org.assertj.core.api.Assertions.assertThat;

import io.gitfn.docs.DocsChecker.Finding;
import io.gitfn.docs.DocsChecker.Outcome;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Every command block and manifest in README.md, gitops-examples/README.md and docs/ must match the code: see
 * {@link DocsChecker}. A line opts out with a trailing {@code # not checked: <why>}.
 */
class DocsCommandsTest {

  private static final Path ROOT = Path.of("").toAbsolutePath();

  @Test
  void everyCommandAndManifestInTheDocsMatchesTheCode() {
    DocsChecker checker = DocsChecker.forRepository(ROOT);
    for (Path file : DocBlocks.documents(ROOT)) {
      DocBlocks.of(ROOT, file).forEach(checker::check);
    }
    System.out.println(checker.summary());
    assertThat(checker.findings()).extracting(Finding::outcome).contains(Outcome.RAN, Outcome.PARSED);
    assertThat(checker.failures()).as("doc commands that do not match the code").isEmpty();
  }

  @Test
  void theCheckerCatchesWhatItShould() throws URISyntaxException {
    Path fixtures = Path.of(getClass().getResource("sample.md").toURI()).getParent();
    DocsChecker checker = new DocsChecker(ROOT, fixtures.resolve("values.yaml"), Set.of("bench", "update-crds"),
        Set.of("sources", "sync"));
    DocBlocks.of(fixtures, fixtures.resolve("sample.md")).forEach(checker::check);

    assertThat(checker.failures()).hasSize(8);
    assertThat(checker.failures()).anySatisfy(f -> assertThat(f).startsWith("sample.md:54:")
        .contains("exactly one of branch"));
    assertThat(checker.failures()).anySatisfy(f -> assertThat(f).startsWith("sample.md:6:").contains("functoins"));
    assertThat(checker.failures()).anySatisfy(f -> assertThat(f).startsWith("sample.md:7:").contains("--no-such-flag"));
    assertThat(checker.failures()).anySatisfy(f -> assertThat(f).startsWith("sample.md:9:")
        .contains("has no value `registry.adress`"));
    assertThat(checker.failures()).anySatisfy(f -> assertThat(f).startsWith("sample.md:11:")
        .contains("no profile `nope`"));
    assertThat(checker.failures()).anySatisfy(f -> assertThat(f).startsWith("sample.md:11:")
        .contains("no benchmark `nobench`"));
    assertThat(checker.failures()).anySatisfy(f -> assertThat(f).startsWith("sample.md:36:")
        .contains("FunctionRepository does not read").contains("prnue"));
    assertThat(checker.failures()).anySatisfy(f -> assertThat(f).startsWith("sample.md:44:")
        .contains("cobol85"));

    assertThat(checker.findings()).filteredOn(f -> f.outcome() == Outcome.RAN).extracting(Finding::where)
        .containsExactly("sample.md:4", "sample.md:22");
    assertThat(checker.findings()).filteredOn(f -> f.outcome() == Outcome.NOT_RUN).extracting(Finding::what)
        .containsExactly("kubectl get pods", "curl -sS -X POST https://example.com -d '{\"a\": \"b\"}'",
            "kubectl apply -f - <<EOF2", "kubectl apply -f - <<EOF");
    assertThat(checker.findings()).filteredOn(f -> f.outcome() == Outcome.OPTED_OUT).hasSize(1);
    assertThat(checker.findings()).filteredOn(f -> f.outcome() == Outcome.CHECKED).extracting(Finding::where)
        .containsExactly("sample.md:8", "sample.md:10", "sample.md:29");
  }

  @Test
  void aMissingChartFailsClearly() throws URISyntaxException {
    Path fixtures = Path.of(getClass().getResource("sample.md").toURI()).getParent();
    DocsChecker checker = new DocsChecker(ROOT, fixtures.resolve("no-such-values.yaml"), Set.of(), Set.of());
    checker.check(new ShellCommands.Command("x.md", 3,
        List.of("helm", "install", "gitfn", "charts/gitfn", "--set", "registry.address=r:5000"),
        "helm install gitfn charts/gitfn --set registry.address=r:5000", null));
    assertThat(checker.failures()).singleElement().asString().startsWith("x.md:3:")
        .contains("no-such-values.yaml is missing").contains("registry.address");
  }

  @Test
  void shellQuotesContinuationsAndSeparatorsAreUnderstood() {
    List<ShellCommands.Command> commands = ShellCommands.scan("f.md", 10, List.of(
        "kubectl annotate fnrepo infra gitfn.io/requested-at=\"$(date +%s)\" --overwrite",
        "TOKEN=abc gitfn reconcile repository infra \\",
        "  --wait   # waits",
        "a | b; c || d 2>&1"));
    assertThat(commands).extracting(ShellCommands.Command::line).containsExactly(10, 11, 13, 13, 13, 13);
    assertThat(commands.get(0).words()).containsExactly("kubectl", "annotate", "fnrepo", "infra",
        "gitfn.io/requested-at=$(date +%s)", "--overwrite");
    assertThat(commands.get(1).words()).containsExactly("gitfn", "reconcile", "repository", "infra", "--wait");
    assertThat(commands.get(5).words()).containsExactly("d", "2>&1");
    assertThat(Files.isDirectory(ROOT.resolve("docs"))).isTrue();
  }
}
