package io.gitfn.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gitfn.api.function.FunctionRuntime;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class InterpretersTest {

  @TempDir Path bin;

  @Test
  void findsTheInterpreterOnPathAndItsVersion() throws Exception {
    Path node = executable("node", "echo v22.11.0");
    Interpreters interpreters = new Interpreters("/nonexistent:" + bin);

    Interpreters.Interpreter found = interpreters.of(FunctionRuntime.NODEJS22);

    assertThat(found).isEqualTo(new Interpreters.Interpreter(node, "v22.11.0"));
    assertThat(Interpreters.versionNote(FunctionRuntime.NODEJS22, found)).isEmpty();
  }

  @Test
  void notesWhenPathHasAnotherVersionThanTheRuntimeNames() throws Exception {
    executable("node", "echo v20.20.2");

    Interpreters.Interpreter found = new Interpreters(bin.toString()).of(FunctionRuntime.NODEJS22);

    assertThat(Interpreters.versionNote(FunctionRuntime.NODEJS22, found))
        .isEqualTo("nodejs22 runs here on " + bin.resolve("node") + " (v20.20.2); its image in a cluster has Node.js 22");
    assertThat(Interpreters.versionNote(FunctionRuntime.NODEJS20, found)).isEmpty();
  }

  @Test
  void eachRuntimesVersionComesFromItsDeclaration() throws Exception {
    executable("node", "echo v24.4.1");
    executable("python3", "echo Python 3.12.11");

    Interpreters interpreters = new Interpreters(bin.toString());

    assertThat(Interpreters.versionNote(FunctionRuntime.NODEJS24, interpreters.of(FunctionRuntime.NODEJS24)))
        .isEmpty();
    assertThat(Interpreters.versionNote(FunctionRuntime.NODEJS22, interpreters.of(FunctionRuntime.NODEJS22)))
        .endsWith("(v24.4.1); its image in a cluster has Node.js 22");
    assertThat(Interpreters.versionNote(FunctionRuntime.PYTHON312, interpreters.of(FunctionRuntime.PYTHON312)))
        .isEmpty();
  }

  @Test
  void aMissingInterpreterIsOneLineNamingItAndTheRuntime() throws Exception {
    executable("node", "echo v22.11.0");

    assertThatThrownBy(() -> new Interpreters(bin.toString()).of(FunctionRuntime.PYTHON312))
        .isInstanceOf(LocalException.class)
        .hasMessage("python3 is not installed or not on PATH; python312 Functions need Python 3.12 to run locally");
  }

  @Test
  void aMissingInterpreterIsLookedUpAgainSoInstallingItWhileGitfnRunsIsEnough() throws Exception {
    Interpreters interpreters = new Interpreters(bin.toString());
    assertThatThrownBy(() -> interpreters.of(FunctionRuntime.PYTHON312)).isInstanceOf(LocalException.class);

    executable("python3", "echo Python 3.12.7");

    assertThat(interpreters.of(FunctionRuntime.PYTHON312).version()).isEqualTo("Python 3.12.7");
  }

  @Test
  void aFileThatIsNotExecutableDoesNotCount() throws Exception {
    Files.writeString(bin.resolve("node"), "not a program");

    assertThatThrownBy(() -> new Interpreters(bin.toString()).of(FunctionRuntime.NODEJS20))
        .hasMessageStartingWith("node is not installed or not on PATH");
  }

  private Path executable(String name, String body) throws IOException {
    Path file = bin.resolve(name);
    Files.writeString(file, "#!/bin/sh\n" + body + "\n");
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
    return file;
  }
}
