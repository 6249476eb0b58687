package io.gitfn.source;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.PublicKey;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.sshd.common.config.keys.AuthorizedKeyEntry;
import org.apache.sshd.common.config.keys.PublicKeyEntryResolver;

/** SSH client keys of every kind users put in Secrets, made by the real {@code ssh-keygen}. */
record ClientKeys(String privateKeyPem, PublicKey publicKey) {

  enum Type {
    ED25519("ed25519", null, "-t", "ed25519"),
    ECDSA("ecdsa", null, "-t", "ecdsa", "-b", "256"),
    RSA_PKCS1("rsa-pkcs1", null, "-t", "rsa", "-b", "2048", "-m", "PEM"),
    ECDSA_PKCS8("ecdsa-pkcs8", null, "-t", "ecdsa", "-b", "256", "-m", "PKCS8"),
    ED25519_WITH_PASSPHRASE("ed25519-pass", "correct horse", "-t", "ed25519");

    final String fileName;
    final String passphrase;
    final List<String> arguments;

    Type(String fileName, String passphrase, String... arguments) {
      this.fileName = fileName;
      this.passphrase = passphrase;
      this.arguments = List.of(arguments);
    }
  }

  static ClientKeys generate(Type type, Path directory) throws IOException, InterruptedException {
    Files.createDirectories(directory);
    Path privateKey = directory.resolve(type.fileName);
    List<String> argv = new ArrayList<>(List.of("ssh-keygen", "-q"));
    argv.addAll(type.arguments);
    argv.addAll(List.of("-N", type.passphrase == null ? "" : type.passphrase, "-C", "gitfn-test", "-f",
        privateKey.toString()));
    Process process;
    try {
      process = new ProcessBuilder(argv).redirectErrorStream(true).start();
    } catch (IOException e) {
      throw new IllegalStateException("ssh-keygen is not installed or not on PATH; the SSH tests need it", e);
    }
    if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
      throw new IllegalStateException(
          "ssh-keygen failed: " + new String(process.getInputStream().readAllBytes()));
    }
    String line = Files.readString(directory.resolve(type.fileName + ".pub")).strip();
    try {
      PublicKey publicKey =
          AuthorizedKeyEntry.parseAuthorizedKeyEntry(line).resolvePublicKey(null, PublicKeyEntryResolver.FAILING);
      return new ClientKeys(Files.readString(privateKey), publicKey);
    } catch (GeneralSecurityException e) {
      throw new IOException("cannot read " + line, e);
    }
  }
}
