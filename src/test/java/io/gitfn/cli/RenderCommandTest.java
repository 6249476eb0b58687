package io.gitfn.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code gitfn render <folder>}: what it prints and how it exits, run in-process. */
class RenderCommandTest {

  @TempDir Path folder;

  record Run(int exitCode, String out, String err) {}

  static Run render(String... arguments) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine command = new CommandLine(new Main());
    command.setOut(new PrintWriter(out));
    command.setErr(new PrintWriter(err));
    String[] all = new String[arguments.length + 1];
    all[0] = "render";
    System.arraycopy(arguments, 0, all, 1, arguments.length);
    int exitCode = command.execute(all);
    return new Run(exitCode, out.toString(), err.toString());
  }

  private void write(String path, String text) throws IOException {
    Path file = folder.resolve(path);
    Files.createDirectories(file.getParent());
    Files.writeString(file, text);
  }

  @Test
  void printsTheFunctionsOfAFolderAsYamlDocuments() throws Exception {
    write("functions/b/handler.py", "def main(event, context):\n    return 'b'\n");
    write("functions/b/requirements.txt", "");
    write("functions/a/handler.js", "module.exports = {};\n");
    write("functions/a/package.json", "{}\n");

    Run run = render(folder.toString());

    assertThat(run.exitCode()).isZero();
    assertThat(run.err()).isEmpty();
    assertThat(run.out()).startsWith("---\n").contains("name: \"a\"", "name: \"b\"", "runtime: \"python312\"");
    assertThat(run.out().indexOf("name: \"a\"")).isLessThan(run.out().indexOf("name: \"b\""));
    assertThat(run.out().split("(?m)^---$")).hasSize(3);
  }

  @Test
  void printsAJsonListWithOutputJson() throws Exception {
    write("fns/a/handler.js", "module.exports = {};\n");
    write("fns/a/package.json", "{}\n");

    Run run = render(folder.toString(), "--path", "fns", "-o", "json");

    assertThat(run.exitCode()).isZero();
    JsonNode list = new ObjectMapper().readTree(run.out());
    assertThat(list.path("kind").asText()).isEqualTo("List");
    assertThat(list.path("items").get(0).path("metadata").path("annotations").path("gitfn.io/source-path").asText())
        .isEqualTo("fns/a");
  }

  @Test
  void anInvalidRevisionPrintsEveryErrorWithItsLineAndExitsOne() throws Exception {
    write("functions/orders/config.yaml", "name: orders\nruntime: cobol85\n");
    write("functions/bad.yaml", """
        apiVersion: serverless.kyma-project.io/v1alpha2
        kind: Function
        metadata:
          name: Bad
        spec:
          runtime: nodejs22
          source: {inline: {source: x}}
        """);

    Run run = render(folder.toString());

    assertThat(run.exitCode()).isEqualTo(RenderCommand.INVALID);
    assertThat(run.out()).isEmpty();
    assertThat(run.err()).contains(
        "functions/bad.yaml:4: metadata.name: name `Bad` is not a DNS-1035 label",
        "functions/orders/config.yaml:2: spec.runtime: runtime `cobol85` is not one of nodejs20, nodejs22,"
            + " python312");
  }

  @Test
  void noticesGoToStandardError() throws Exception {
    write("secret.yaml", "apiVersion: v1\nkind: Secret\nmetadata: {name: s}\n");

    Run run = render(folder.toString());

    assertThat(run.exitCode()).isZero();
    assertThat(run.out()).isEmpty();
    assertThat(run.err()).contains("notice: secret.yaml:2: a Secret (v1), not a Function; ignored");
  }

  @Test
  void aMissingFolderExitsTwo() {
    Run run = render(folder.resolve("nowhere").toString());

    assertThat(run.exitCode()).isEqualTo(RenderCommand.UNREADABLE);
    assertThat(run.err()).contains("neither a folder nor a Git URL");
  }

  @Test
  void theGitopsExamplesAreAccepted() {
    Path examples = Path.of(System.getProperty("gitfn.project.dir", "."), "gitops-examples");

    Run run = render(examples.toString());

    assertThat(run.err()).isEmpty();
    assertThat(run.exitCode()).isZero();
    assertThat(run.out()).contains("name: \"hello\"", "name: \"greeter\"", "name: \"py-hello\"", "name: \"orders\"",
        "name: \"orders-from-git\"", "scaleConfig:", "gitRepository:");
  }
}
