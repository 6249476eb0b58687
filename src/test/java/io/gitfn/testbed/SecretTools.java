package io.gitfn.testbed;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The real tools that write SOPS files: {@code sops}, which {@code scripts/build-testbed.sh} builds from its Go module
 * into {@code <cache>/sops-<version>/sops}, and Debian's {@code age} and {@code age-keygen} (package {@code age},
 * which {@code .ci/run} installs), for the tests of gitfn's own SOPS reader.
 */
public record SecretTools(Path sops, Path age, Path ageKeygen) {

  /** Finds all three, or fails with the commands that provide them. */
  public static SecretTools locate() {
    Path sops = TestBedBinaries.cacheDir()
        .resolve("sops-" + TestBedBinaries.versions().getProperty("SOPS_VERSION")).resolve("sops");
    Path age = onPath("age");
    Path keygen = onPath("age-keygen");
    List<String> missing = new ArrayList<>();
    if (!Files.isExecutable(sops)) {
      missing.add(sops + ": run `bash scripts/build-testbed.sh` (it builds sops from its Go module)");
    }
    if (age == null || keygen == null) {
      missing.add("age and age-keygen on PATH: run `apt-get install -y age`");
    }
    if (!missing.isEmpty()) {
      throw new IllegalStateException("The SOPS tools are missing: " + String.join("; ", missing));
    }
    return new SecretTools(sops, age, keygen);
  }

  /** An age identity that {@code age-keygen} wrote to {@code file}, and its {@code age1} recipient. */
  public record AgeKey(Path file, String recipient) {}

  /** A fresh identity made by {@code age-keygen} in {@code file}. */
  public AgeKey newIdentity(Path file) {
    run(ageKeygen.toString(), "-o", file.toString());
    return new AgeKey(file, run(ageKeygen.toString(), "-y", file.toString()).strip());
  }

  private static String run(String... argv) {
    try {
      Process process = new ProcessBuilder(argv).redirectError(ProcessBuilder.Redirect.DISCARD).start();
      process.getOutputStream().close();
      String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
        throw new IllegalStateException(String.join(" ", argv) + " failed");
      }
      return out;
    } catch (IOException e) {
      throw new IllegalStateException("cannot run " + String.join(" ", argv), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private static Path onPath(String name) {
    for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
      Path candidate = Path.of(dir).resolve(name);
      if (Files.isExecutable(candidate)) {
        return candidate;
      }
    }
    return null;
  }
}
