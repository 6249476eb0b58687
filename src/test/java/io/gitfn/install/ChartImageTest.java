package io.gitfn.install;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The chart's default image is the one {@code mvn -B -Pimage package} builds: a cluster that loads
 * target/gitfn-image.tar and installs the chart with no image values runs this very build.
 */
class ChartImageTest {

  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
  private final Path projectDir = Path.of(System.getProperty("gitfn.project.dir", System.getProperty("user.dir")));

  @Test
  void theChartsAppVersionIsTheProjectVersion() throws IOException {
    JsonNode chart = YAML.readTree(projectDir.resolve("charts/gitfn/Chart.yaml").toFile());

    assertThat(chart.path("appVersion").asText()).isEqualTo(projectVersion());
  }

  @Test
  void theChartsDefaultRepositoryIsTheImageTheBuildNames() throws IOException {
    JsonNode values = YAML.readTree(projectDir.resolve("charts/gitfn/values.yaml").toFile());
    Matcher image = Pattern.compile("<image>([^<$]+):\\$\\{project.version}</image>")
        .matcher(Files.readString(projectDir.resolve("pom.xml")));

    assertThat(image.find()).as("pom.xml names the image <repository>:${project.version}").isTrue();
    assertThat(values.path("image").path("repository").asText()).isEqualTo(image.group(1));
    assertThat(values.path("image").path("tag").asText()).as("empty: the appVersion").isEmpty();
  }

  static String projectVersion() throws IOException {
    Properties versions = new Properties();
    try (InputStream in = ChartImageTest.class.getResourceAsStream("/io/gitfn/version.properties")) {
      versions.load(in);
    }
    return versions.getProperty("gitfn");
  }
}
