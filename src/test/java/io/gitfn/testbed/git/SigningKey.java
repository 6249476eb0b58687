package io.gitfn.testbed.git;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * An ed25519 key made by {@code ssh-keygen} that the real {@code git} signs commits and tags with
 * ({@code gpg.format=ssh}), for the tests of signed revisions through the controller.
 *
 * @param file the private key; the public one is beside it, with {@code .pub}
 */
public record SigningKey(Path file) {

  /** A new key in {@code directory}, whose public line ends with {@code comment} (the signer gitfn shows). */
  public static SigningKey generate(Path directory, String name, String comment) throws IOException {
    Files.createDirectories(directory);
    Path key = directory.resolve(name);
    new ExternalCommand(List.of("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", comment, "-f", key.toString()),
        directory, Map.of()).run();
    return new SigningKey(key);
  }

  /** The {@code authorized_keys} line, as a {@code *.sshpub} entry of the key Secret holds it. */
  public String publicLine() throws IOException {
    return Files.readString(Path.of(file + ".pub")).strip();
  }

  /** The SHA256 fingerprint as {@code ssh-keygen -l} prints it, which gitfn records. */
  public String fingerprint() {
    Path pub = Path.of(file + ".pub");
    return new ExternalCommand(List.of("ssh-keygen", "-l", "-E", "sha256", "-f", pub.toString()), file.getParent(),
        Map.of()).run().strip().split(" ")[1];
  }

  /** Commits every change (or none) in {@code copy}, signed with this key; the commit's SHA. */
  public String commit(WorkingCopy copy, String message) {
    copy.git("add", "--all");
    git(copy, "commit", "--quiet", "--allow-empty", "-S", "--message", message);
    return copy.head();
  }

  /** A signed annotated tag on HEAD; the tag object's id. */
  public String tag(WorkingCopy copy, String name) {
    git(copy, "tag", "-s", name, "-m", "release " + name);
    return copy.git("rev-parse", "refs/tags/" + name).strip();
  }

  /** Any {@code git} command in {@code copy} that signs ({@code -S}, {@code -s}) with this key. */
  public String git(WorkingCopy copy, String... arguments) {
    List<String> argv = new ArrayList<>(List.of("-c", "gpg.format=ssh", "-c", "user.signingkey=" + file));
    argv.addAll(List.of(arguments));
    return copy.git(argv.toArray(String[]::new));
  }
}
