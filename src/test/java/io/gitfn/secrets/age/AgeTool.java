package io.gitfn.secrets.age;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The real {@code age} and {@code age-keygen} (Debian's package), run as processes so that tests open files age
 * itself wrote. A machine without them fails the test that needs them, saying how to install them: they are part
 * of what {@code .ci/run} installs, so a missing one is a broken machine, not a reason to skip.
 */
final class AgeTool {

  /** An identity file as age-keygen writes it (two comment lines, then the key) and its recipient. */
  record KeyPair(String identityFile, String recipient) {}

  private AgeTool() {}

  static KeyPair keygen() {
    String file = new String(run(List.of("age-keygen"), new byte[0]), StandardCharsets.US_ASCII);
    String recipient = file.lines().filter(line -> line.startsWith("# public key: ")).findFirst()
        .orElseThrow(() -> new AssertionError("age-keygen printed no public key line"))
        .substring("# public key: ".length());
    return new KeyPair(file, recipient);
  }

  /** What {@code age-keygen -y} says the recipient of {@code identityFile} is. */
  static String recipientOf(String identityFile) {
    return new String(run(List.of("age-keygen", "-y"), identityFile.getBytes(StandardCharsets.US_ASCII)),
        StandardCharsets.US_ASCII).strip();
  }

  /** {@code age -e -r ... [-a]} of {@code plaintext}. */
  static byte[] encrypt(byte[] plaintext, boolean armor, String... recipients) {
    List<String> command = new ArrayList<>(List.of("age", "-e"));
    for (String recipient : recipients) {
      command.add("-r");
      command.add(recipient);
    }
    if (armor) {
      command.add("-a");
    }
    return run(command, plaintext);
  }

  private static byte[] run(List<String> command, byte[] input) {
    Process process;
    try {
      process = new ProcessBuilder(command).start();
    } catch (IOException e) {
      return fail("cannot run " + command.get(0) + " (" + e.getMessage() + "): these tests need the real age tool, "
          + "Debian's package age (apt-get install -y age), which .ci/run installs");
    }
    try {
      CompletableFuture<byte[]> stdout = drain(process.getInputStream());
      CompletableFuture<byte[]> stderr = drain(process.getErrorStream());
      try (OutputStream stdin = process.getOutputStream()) {
        stdin.write(input);
      }
      assertThat(process.waitFor(30, TimeUnit.SECONDS)).as(command + " finished").isTrue();
      assertThat(process.exitValue()).as(command + ": " + new String(stderr.join(), StandardCharsets.UTF_8))
          .isZero();
      return stdout.join();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    } finally {
      process.destroyForcibly();
    }
  }

  private static CompletableFuture<byte[]> drain(InputStream stream) {
    return CompletableFuture.supplyAsync(() -> {
      try (stream) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        stream.transferTo(out);
        return out.toByteArray();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    });
  }
}
