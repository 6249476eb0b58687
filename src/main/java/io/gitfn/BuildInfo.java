package io.gitfn;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Properties;

/**
 * What this build of gitfn is made of. The build writes the versions into {@code version.properties}
 * from the same properties that pick the dependencies, so the two cannot drift apart.
 *
 * @param gitfn this project's version
 * @param kubernetes the Kubernetes release the test bed runs, which this build was tested against
 * @param fabric8 the fabric8 kubernetes-client version
 * @param josdk the Java Operator SDK version
 * @param jgit the JGit version
 */
public record BuildInfo(String gitfn, String kubernetes, String fabric8, String josdk, String jgit) {

  public static BuildInfo load() {
    Properties p = new Properties();
    try (InputStream in = BuildInfo.class.getResourceAsStream("version.properties")) {
      if (in == null) {
        throw new IllegalStateException("io/gitfn/version.properties is missing from the class path");
      }
      p.load(in);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return new BuildInfo(
        p.getProperty("gitfn"),
        p.getProperty("kubernetes"),
        p.getProperty("fabric8"),
        p.getProperty("josdk"),
        p.getProperty("jgit"));
  }

  /** The lines {@code gitfn version} prints. */
  public List<String> lines() {
    return List.of(
        "gitfn " + gitfn,
        "Kubernetes " + kubernetes + " (fabric8 kubernetes-client " + fabric8 + ", Java Operator SDK " + josdk + ")",
        "JGit " + jgit);
  }
}
