package io.gitfn.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The invalid Functions under {@code invalid/} and the messages they expect stay in step with the CRD, so an
 * integration test that applies them can trust what it looks for.
 */
class InvalidFunctionFixturesTest {

  private final CustomResourceDefinition crd = Crds.load("functions.serverless.kyma-project.io");

  @Test
  void everyInvalidFunctionExpectsAMessage() throws Exception {
    assertThat(expectedMessages().stringPropertyNames())
        .as("file names in invalid/expected-messages.properties")
        .containsExactlyInAnyOrderElementsOf(invalidFiles());
  }

  @Test
  void everyExpectedMessageIsTheMessageOfARuleInTheCrd() throws IOException {
    Properties expected = expectedMessages();
    for (String file : expected.stringPropertyNames()) {
      assertThat(Crds.allMessages(crd))
          .as("CEL messages of the Function CRD, for %s", file)
          .contains(expected.getProperty(file));
    }
  }

  private static Properties expectedMessages() throws IOException {
    Properties p = new Properties();
    try (InputStream in = InvalidFunctionFixturesTest.class.getResourceAsStream("invalid/expected-messages.properties")) {
      assertThat(in).as("invalid/expected-messages.properties").isNotNull();
      p.load(in);
    }
    return p;
  }

  private static Set<String> invalidFiles() throws IOException, URISyntaxException {
    Path dir = Path.of(InvalidFunctionFixturesTest.class.getResource("invalid").toURI());
    try (Stream<Path> files = Files.list(dir)) {
      return files.map(f -> f.getFileName().toString()).filter(n -> n.endsWith(".yaml")).collect(Collectors.toSet());
    }
  }
}
