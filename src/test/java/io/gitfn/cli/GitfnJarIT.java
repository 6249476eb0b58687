package io.gitfn.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.gitfn.testbed.TestBedBinaries;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.eclipse.jgit.lib.Repository;
import org.junit.jupiter.api.Test;

/** The packaged {@code target/gitfn.jar} runs on its own, as the README tells a newcomer to run it. */
class GitfnJarIT {

  @Test
  void versionPrintsGitfnKubernetesAndJgitVersions() throws Exception {
    Path project = TestBedBinaries.projectDir();
    Path output = Files.createTempFile("gitfn-version", ".txt");
    Process java =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-jar", project.resolve("target/gitfn.jar").toString(), "version")
            .redirectErrorStream(true)
            .redirectOutput(output.toFile())
            .start();
    assertThat(java.waitFor(60, TimeUnit.SECONDS)).as("gitfn version finished within 60 s").isTrue();
    String printed = Files.readString(output, StandardCharsets.UTF_8);

    assertThat(java.exitValue()).as(printed).isZero();
    assertThat(printed.lines())
        .containsExactly(
            "gitfn " + pomVersion(project),
            "Kubernetes " + testBedVersions(project).getProperty("KUBERNETES_VERSION")
                + " (fabric8 kubernetes-client " + implementationVersion(io.fabric8.kubernetes.client.KubernetesClient.class)
                + ", Java Operator SDK " + implementationVersion(io.javaoperatorsdk.operator.Operator.class) + ")",
            "JGit " + implementationVersion(Repository.class));
  }

  /** The version of the jar a class was loaded from, by the local Maven repository's layout: what the build used. */
  private static String implementationVersion(Class<?> type) throws Exception {
    Path jar = Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI());
    return jar.getParent().getFileName().toString();
  }

  private static Properties testBedVersions(Path project) throws Exception {
    Properties versions = new Properties();
    try (InputStream in = Files.newInputStream(project.resolve("scripts/testbed.versions"))) {
      versions.load(in);
    }
    return versions;
  }

  private static String pomVersion(Path project) throws Exception {
    String pom = Files.readString(project.resolve("pom.xml"));
    return pom.replaceFirst("(?s).*?<artifactId>gitfn</artifactId>\\s*<version>([^<]+)</version>.*", "$1");
  }
}
