package io.gitfn.cli;

import static io.gitfn.cli.RenderCommandTest.render;
import static org.assertj.core.api.Assertions.assertThat;

import io.gitfn.api.function.Function;
import io.gitfn.api.function.TestFunction;
import io.gitfn.testbed.git.BareRepository;
import io.gitfn.testbed.git.GitClient;
import io.gitfn.testbed.git.GitHttpServer;
import io.gitfn.testbed.git.GitServers;
import io.gitfn.testbed.git.WorkingCopy;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code gitfn render <git URL>} against a real repository pushed with the git client. The test server asks for
 * basic auth, which render does not take, so render reads the same bare repository through a file:// URL.
 */
@ExtendWith(GitServers.class)
class RenderIT {

  @TempDir Path cacheDir;

  @Test
  void rendersARepositoryAtABranchAndAtAnEarlierCommit(
      GitHttpServer http, BareRepository repository, GitClient git) throws Exception {
    WorkingCopy clone = git.clone(http.url(repository.name()));
    clone.write("infra/functions/greeter/handler.js", "module.exports = { main: () => 'v1' };\n")
        .write("infra/functions/greeter/package.json", "{}\n")
        .write("README.md", "not read\n")
        .commit("greeter v1");
    String first = clone.head();
    clone.write("infra/functions/greeter/handler.js", "module.exports = { main: () => 'v2' };\n").commit("v2");
    clone.push();
    String url = "file://" + repository.directory().toAbsolutePath();

    CliRun atMain = render(url, "--path", "infra", "--cache-dir", cacheDir.toString());
    CliRun atFirst =
        render(url, "--ref", first, "--path", "infra", "--cache-dir", cacheDir.toString());

    assertThat(atMain.err()).isEmpty();
    assertThat(atMain.exitCode()).isZero();
    assertThat(atMain.out()).contains("name: \"greeter\"", "'v2'", "gitfn.io/source-path: \"infra/functions/greeter\"");
    assertThat(atFirst.exitCode()).isZero();
    assertThat(atFirst.out()).contains("'v1'");
  }

  @Test
  void aConfigMapRendersAsEachCommitDeclaresItInTheRepositorysNamespace(
      GitHttpServer http, BareRepository repository, GitClient git) throws Exception {
    WorkingCopy clone = git.clone(http.url(repository.name()));
    String settings = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: greeting\ndata:\n  GREETING: %s\n";
    clone.write("infra/greeting.yaml", settings.formatted("hello")).commit("greeting hello");
    String first = clone.head();
    clone.write("infra/greeting.yaml", settings.formatted("bonjour")).commit("greeting bonjour");
    clone.push();
    String url = "file://" + repository.directory().toAbsolutePath();

    CliRun atMain = render(url, "--path", "infra", "-n", "shop", "--cache-dir", cacheDir.toString());
    CliRun atFirst = render(url, "--ref", first, "--path", "infra", "-n", "shop", "--cache-dir",
        cacheDir.toString());

    assertThat(atMain.exitCode()).as(atMain.err()).isZero();
    assertThat(atMain.out()).contains("kind: \"ConfigMap\"", "namespace: \"shop\"", "GREETING: \"bonjour\"");
    assertThat(atFirst.exitCode()).as(atFirst.err()).isZero();
    assertThat(atFirst.out()).contains("GREETING: \"hello\"").doesNotContain("bonjour");
  }

  @Test
  void withWorkloadsAGitSourcedFunctionIsResolvedAsTheControllerWouldResolveIt(
      GitHttpServer http, BareRepository repository, GitClient git) throws Exception {
    WorkingCopy clone = git.clone(http.url(repository.name()));
    clone.write("code/orders/handler.js", "module.exports = { main: () => 'orders' };\n")
        .write("code/orders/package.json", "{\"name\": \"orders\"}\n").commit("orders");
    clone.push();
    String url = "file://" + repository.directory().toAbsolutePath();
    // The manifest reader only takes https, ssh and git URLs, and the test server wants basic auth, which render
    // does not have: so the Function goes straight to the printing step, with the bare repository's file:// URL.
    Function orders = TestFunction.declared("orders").gitRepository(url, "main", "code/orders").build();
    java.io.StringWriter out = new java.io.StringWriter();
    java.io.StringWriter err = new java.io.StringWriter();

    RenderCommand command = new RenderCommand().resolvingGitSources(cacheDir.resolve("mirrors"));
    int exit = command.print(java.util.List.of(orders), new java.io.PrintWriter(out), new java.io.PrintWriter(err));

    assertThat(exit).as(err.toString()).isZero();
    assertThat(err.toString()).startsWith("notice: Function default/orders resolved " + url + " main@sha1:"
        + clone.head() + "\n");
    // The image is named by the key of the resolved baseDir; whether it needs an install Job only a registry says.
    assertThat(out.toString()).contains("kind: \"Deployment\"", "kind: \"Service\"",
        "image: \"registry.local:5000/default/orders:");
  }

  @Test
  void anInvalidCommitExitsOneWithTheErrors(GitHttpServer http, BareRepository repository, GitClient git)
      throws Exception {
    WorkingCopy clone = git.clone(http.url(repository.name()));
    clone.write("functions/orders/config.yaml", "name: orders\nruntime: cobol85\n").commit("bad runtime");
    clone.push();

    CliRun run = render("file://" + repository.directory().toAbsolutePath(),
        "--cache-dir", cacheDir.toString());

    assertThat(run.exitCode()).isEqualTo(RenderCommand.INVALID);
    assertThat(run.err()).contains("functions/orders/config.yaml:2: spec.runtime: runtime `cobol85` is not one of"
        + " nodejs20, nodejs22, nodejs24, python312");
  }

  @Test
  void aMissingBranchExitsTwo(GitHttpServer http, BareRepository repository, GitClient git) throws Exception {
    WorkingCopy clone = git.clone(http.url(repository.name()));
    clone.write("a.txt", "a\n").commit("one");
    clone.push();

    CliRun run = render("file://" + repository.directory().toAbsolutePath(), "--ref", "nope",
        "--cache-dir", cacheDir.toString());

    assertThat(run.exitCode()).isEqualTo(RenderCommand.UNREADABLE);
    assertThat(run.err()).contains("nope");
  }
}
