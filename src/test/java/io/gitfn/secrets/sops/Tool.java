package io.gitfn.secrets.sops;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** Runs one of the real tools (sops, age, age-keygen) in a test and hands back what it printed. */
public record Tool(int exitCode, byte[] stdout, String stderr) {

  static Tool run(Path dir, Map<String, String> env, byte[] stdin, List<String> argv) {
    try {
      ProcessBuilder builder = new ProcessBuilder(argv).directory(dir.toFile());
      builder.environment().putAll(env);
      Process process = builder.start();
      CompletableFuture<byte[]> out = CompletableFuture.supplyAsync(() -> read(process, true));
      CompletableFuture<byte[]> err = CompletableFuture.supplyAsync(() -> read(process, false));
      try (OutputStream in = process.getOutputStream()) {
        in.write(stdin);
      }
      if (!process.waitFor(60, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        throw new IllegalStateException(argv + " did not finish in 60 s");
      }
      return new Tool(process.exitValue(), out.join(), new String(err.join()));
    } catch (IOException e) {
      throw new IllegalStateException("cannot run " + argv, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** {@link #run} that fails the test, with the tool's own words, unless the tool succeeded. */
  public static byte[] ok(Path dir, Map<String, String> env, byte[] stdin, List<String> argv) {
    Tool result = run(dir, env, stdin, argv);
    if (result.exitCode != 0) {
      throw new IllegalStateException(argv + " exited with " + result.exitCode + ": " + result.stderr);
    }
    return result.stdout;
  }

  private static byte[] read(Process process, boolean stdout) {
    try {
      return (stdout ? process.getInputStream() : process.getErrorStream()).readAllBytes();
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }
}
