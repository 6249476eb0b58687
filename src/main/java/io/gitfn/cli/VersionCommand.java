package io.gitfn.cli;

import io.gitfn.BuildInfo;
import picocli.CommandLine.Command;
import picocli.CommandLine;

/** {@code gitfn version}: what this binary is and the libraries it was built with. */
@Command(name = "version", description = "Print the gitfn version and the Kubernetes and JGit versions it was built with.")
final class VersionCommand implements Runnable {

  @Override
  public void run() {
    BuildInfo.load().lines().forEach(System.out::println);
  }

  static final class Provider implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      return BuildInfo.load().lines().toArray(String[]::new);
    }
  }
}
