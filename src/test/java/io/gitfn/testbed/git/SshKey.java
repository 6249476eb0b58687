package io.gitfn.testbed.git;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.PublicKey;
import java.util.List;
import java.util.Map;
import org.apache.sshd.common.config.keys.AuthorizedKeyEntry;
import org.apache.sshd.common.config.keys.PublicKeyEntryResolver;

/**
 * A client key pair: an unencrypted OpenSSH private key file that both the {@code ssh} client and
 * JGit read, and its public half for the server to authorize.
 */
public record SshKey(Path privateKeyFile, PublicKey publicKey) {

  /**
   * Writes a new key pair with {@code ssh-keygen} into {@code directory}.
   *
   * <p>ECDSA, not ed25519: MINA sshd 2.16 reads ed25519 keys only with net.i2p EdDSA or Bouncy
   * Castle on the class path, and neither is a dependency of gitfn.
   */
  public static SshKey generate(Path directory) throws IOException {
    Files.createDirectories(directory);
    Path privateKey = directory.resolve("id_ecdsa");
    new ExternalCommand(
            List.of(
                "ssh-keygen", "-q", "-t", "ecdsa", "-b", "256", "-N", "", "-C", "gitfn-test",
                "-f", privateKey.toString()),
            directory,
            Map.of())
        .run();
    return new SshKey(privateKey, readPublicKey(directory.resolve("id_ecdsa.pub")));
  }

  private static PublicKey readPublicKey(Path publicKeyFile) throws IOException {
    String line = Files.readString(publicKeyFile).strip();
    try {
      return AuthorizedKeyEntry.parseAuthorizedKeyEntry(line)
          .resolvePublicKey(null, PublicKeyEntryResolver.FAILING);
    } catch (GeneralSecurityException e) {
      throw new IOException("Cannot read the public key in " + publicKeyFile, e);
    }
  }
}
