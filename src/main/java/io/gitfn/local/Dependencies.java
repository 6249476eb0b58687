package io.gitfn.local;

import io.gitfn.api.function.FunctionRuntime;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;

/**
 * A Function's installed dependencies, one folder per (runtime, dependency file): {@code npm install} into
 * {@code node_modules}, or {@code pip install --target site}. The same dependency file never installs twice,
 * across Functions, versions and runs of gitfn.
 */
final class Dependencies {

  /** An installed set of dependencies, and whether this call ran npm or pip for it. */
  record Installed(Path folder, boolean ranInstaller) {}

  private final Path cache;

  Dependencies(Path cache) {
    this.cache = cache;
  }

  /**
   * The folder with {@code dependencies} installed for {@code runtime}.
   *
   * @param dependencies package.json or requirements.txt, as the build context has it (blank means none)
   */
  Installed install(FunctionRuntime runtime, String dependencies) throws LocalException {
    Language language = Language.of(runtime);
    boolean declaresAny = language == Language.NODEJS ? hasNodeDependencies(dependencies) : !dependencies.isBlank();
    Path folder = cache.resolve("dependencies").resolve(runtime.value() + "-" + hash(runtime, dependencies));
    boolean fresh = Installs.ensure(folder, target -> {
      if (language == Language.NODEJS) {
        Files.writeString(target.resolve("package.json"), dependencies, StandardCharsets.UTF_8);
        if (declaresAny) {
          Commands.run(List.of("npm", "install", "--omit=dev", "--no-audit", "--no-fund", "--no-package-lock",
              "--loglevel=error"), target);
        }
        Files.createDirectories(target.resolve("node_modules"));
      } else {
        Files.writeString(target.resolve("requirements.txt"), dependencies, StandardCharsets.UTF_8);
        Files.createDirectories(target.resolve("site"));
        if (declaresAny) {
          Commands.run(List.of("python3", "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
              "--target", target.resolve("site").toString(), "-r", "requirements.txt"), target);
        }
      }
    });
    return new Installed(folder, fresh && declaresAny);
  }

  // A package.json with no dependencies needs no npm run: most Functions have none.
  private static boolean hasNodeDependencies(String packageJson) {
    return packageJson.matches("(?s).*\"(dependencies|optionalDependencies)\"\\s*:\\s*\\{\\s*\".*");
  }

  private static String hash(FunctionRuntime runtime, String dependencies) {
    try {
      MessageDigest sha = MessageDigest.getInstance("SHA-256");
      sha.update(runtime.value().getBytes(StandardCharsets.UTF_8));
      sha.update((byte) 0);
      sha.update(dependencies.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(sha.digest()).substring(0, 16);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java platform has SHA-256", e);
    }
  }
}
