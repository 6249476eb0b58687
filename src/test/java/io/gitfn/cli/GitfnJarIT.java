package io.gitfn.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.gitfn.BuildInfo;
import io.gitfn.testbed.TestBedBinaries;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The packaged {@code target/gitfn.jar} runs on its own, as the README tells a newcomer to run it. */
class GitfnJarIT {

  @Test
  void versionPrintsGitfnKubernetesAndJgitVersions() throws Exception {
    Path jar = TestBedBinaries.projectDir().resolve("target/gitfn.jar");
    Process java =
        new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-jar", jar.toString(), "version")
            .redirectErrorStream(true)
            .start();
    String output = new String(java.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(java.waitFor(30, TimeUnit.SECONDS)).isTrue();

    assertThat(java.exitValue()).as(output).isZero();
    BuildInfo build = BuildInfo.load();
    assertThat(output.lines())
        .containsExactly(
            "gitfn " + build.gitfn(),
            "Kubernetes " + build.kubernetes() + " (fabric8 kubernetes-client " + build.fabric8()
                + ", Java Operator SDK " + build.josdk() + ")",
            "JGit " + build.jgit());
    assertThat(build.kubernetes()).as("the release the test bed runs").isEqualTo(TestBedBinaries.locate().kubernetesVersion());
    assertThat(build.jgit()).as("the JGit on the class path")
        .isEqualTo(org.eclipse.jgit.lib.Repository.class.getPackage().getImplementationVersion());
  }
}
