package io.gitfn.build;

import static org.assertj.core.api.Assertions.assertThat;

import io.gitfn.api.function.FunctionRuntime;
import io.gitfn.workload.ImageLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The install Job's script for a Function with nothing to install, run by the host's {@code sh}: the folder the
 * pack container packs into the dependency layer is there, empty, whatever npm or pip made. A Function with no
 * dependencies is the common case, and a missing folder failed its install Job ("node_modules is not a folder").
 * npm and pip are stand-ins that install nothing; the real-node tests run the real ones.
 */
class InstallScriptPackedTest {

  @TempDir
  Path dir;

  @Test
  void aNodeFunctionWithNoDependenciesLeavesAnEmptyNodeModulesToPack() throws Exception {
    Path app = install(FunctionRuntime.NODEJS22, "handler.js", "package.json", "{}");

    assertThat(app.resolve("function/node_modules")).isEmptyDirectory();
  }

  @Test
  void aPythonFunctionWithNoDependenciesLeavesAnEmptyPackagesFolderToPack() throws Exception {
    Path app = install(FunctionRuntime.PYTHON312, "handler.py", "requirements.txt", "");

    assertThat(app.resolve("function/" + ImageLayout.PYTHON_PACKAGES)).isEmptyDirectory();
  }

  @Test
  void anInstallThatSucceedsWritesExitCodeZeroForThePackContainer() throws Exception {
    Path exit = dir.resolve("status/exit");
    Files.createDirectories(exit.getParent());

    Ended ended = run(FunctionRuntime.NODEJS22, "handler.js", "package.json", "{}", 0, exit);

    assertThat(ended.code()).as(ended.output()).isZero();
    assertThat(Files.readString(exit)).isEqualTo("0\n");
    assertThat(exit.resolveSibling("exit.tmp")).doesNotExist();
  }

  @Test
  void anInstallThatFailsWritesNpmsExitCodeAndStillEndsWithIt() throws Exception {
    Path exit = dir.resolve("status/exit");
    Files.createDirectories(exit.getParent());

    Ended ended = run(FunctionRuntime.NODEJS22, "handler.js", "package.json", "{\"dependencies\":{\"x\":\"1\"}}", 7,
        exit);

    assertThat(ended.code()).isEqualTo(7);
    assertThat(ended.output()).contains("installing the Function's dependencies from package.json"
        + " (no package-lock.json) failed with exit code 7");
    assertThat(Files.readString(exit)).isEqualTo("7\n");
  }

  @Test
  void aFailedInstallWithoutThePackageRegistryConfigSaysTheDefaultRegistryWasUsed() throws Exception {
    Ended ended = run(FunctionRuntime.NODEJS22, "handler.js", "package.json", "{\"dependencies\":{\"x\":\"1\"}}", 1,
        null, "npm-mirror", false);

    assertThat(ended.code()).isEqualTo(1);
    assertThat(ended.output()).contains("gitfn: the package-registry Secret npm-mirror has no .npmrc in this namespace:"
        + " installing from the default registry");
    // The last line is the termination message's tail, which the Function's status quotes.
    assertThat(ended.output().strip().lines().reduce((a, b) -> b).orElseThrow()).isEqualTo("gitfn: installing the"
        + " Function's dependencies from package.json (no package-lock.json) failed with exit code 1; the"
        + " package-registry Secret npm-mirror has no .npmrc in this namespace, so the default registry was used");
  }

  @Test
  void aFailedInstallWithThePackageRegistryConfigBlamesNothingElse() throws Exception {
    Ended ended = run(FunctionRuntime.PYTHON312, "handler.py", "requirements.txt", "x==1", 1, null, "pypi-mirror",
        true);

    assertThat(ended.code()).isEqualTo(1);
    assertThat(ended.output()).doesNotContain("package-registry")
        .contains("installing the Function's dependencies from requirements.txt failed with exit code 1\n");
  }

  /** Runs the packed install (the runtime image already there) with stand-ins that install nothing. */
  private Path install(FunctionRuntime runtime, String handler, String dependencies, String content)
      throws Exception {
    Ended ended = run(runtime, handler, dependencies, content, 0, null);
    assertThat(ended.code()).as(ended.output()).isZero();
    return dir.resolve("app");
  }

  private record Ended(int code, String output) {}

  /**
   * @param toolExit how npm's and pip's stand-ins exit
   * @param exitFile where the script reports its end, as in an install Job; null for none
   */
  private Ended run(FunctionRuntime runtime, String handler, String dependencies, String content, int toolExit,
      Path exitFile) throws Exception {
    return run(runtime, handler, dependencies, content, toolExit, exitFile, null, false);
  }

  /**
   * @param registrySecret the package-registry Secret's name, or null for none
   * @param registryConfigThere whether the Secret's config file is mounted
   */
  private Ended run(FunctionRuntime runtime, String handler, String dependencies, String content, int toolExit,
      Path exitFile, String registrySecret, boolean registryConfigThere) throws Exception {
    Path source = Files.createDirectories(dir.resolve("source"));
    Files.writeString(source.resolve(BuildlessSource.INDEX),
        handler + " function/" + handler + "\n" + dependencies + " function/" + dependencies + "\n");
    Files.writeString(source.resolve(handler), "x");
    Files.writeString(source.resolve(dependencies), content);
    Path bin = Files.createDirectories(dir.resolve("bin"));
    for (String tool : new String[] {"npm", "python3"}) {
      Files.writeString(bin.resolve(tool), "#!/bin/sh\nexit " + toolExit + "\n");
      bin.resolve(tool).toFile().setExecutable(true);
    }
    Path app = Files.createDirectories(dir.resolve("app"));
    Path registry = Files.createDirectories(dir.resolve("registry"));
    if (registryConfigThere) {
      Files.writeString(registry.resolve(RuntimeFiles.of(runtime).packageRegistryConfig()), "");
    }
    String script = InstallScript.of(runtime, false, true, false, registrySecret)
        .replace(BuildlessDeployment.REGISTRY_CONFIG + "/", registry + "/")
        .replace(BuildlessDeployment.SOURCE + "/", source + "/")
        .replaceAll(BuildlessDeployment.APP + "(?=[/ \"\\n])", app.toString());
    ProcessBuilder builder = new ProcessBuilder("sh", "-c",
        exitFile == null ? script : InstallScript.reportingExit(script, exitFile.toString())).redirectErrorStream(true);
    Map<String, String> env = builder.environment();
    env.put("PATH", bin + ":" + env.get("PATH"));
    Process process = builder.start();
    String output = new String(process.getInputStream().readAllBytes());
    assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
    return new Ended(process.exitValue(), output);
  }
}
