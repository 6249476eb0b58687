package io.gitfn.secrets;

import io.fabric8.kubernetes.api.model.Secret;
import io.gitfn.api.KubernetesNames;
import io.gitfn.manifest.EncryptedDocument;
import io.gitfn.secrets.age.AgeIdentity;
import io.gitfn.secrets.sops.DecryptedDocument;
import io.gitfn.secrets.sops.SopsException;
import io.gitfn.secrets.sops.SopsFile;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A revision's SOPS-encrypted Secrets, decrypted in memory with the repository's age identities and checked as the
 * Secrets gitfn applies ({@link SecretValidator}); all or none. Pure: the files and the identities are handed in,
 * and the plaintext goes nowhere but into the {@link DecryptedSecret}s it returns.
 */
public final class SecretDecryptor {

  /**
   * More encrypted Secrets than a repository needs. Each costs a key agreement per recipient and identity, so a
   * revision of thousands of small files would hold a worker for long.
   */
  public static final int MAX_SECRETS = 1000;

  private SecretDecryptor() {}

  /**
   * Each document decrypted and checked, in the given order.
   *
   * @param documents the revision's encrypted Secrets ({@code Manifest.encryptedSecrets()})
   * @param identities the repository's age identities; a file opens with the first that matches one of its
   *     recipients
   * @param namespace the FunctionRepository's namespace: the Secrets' namespace, which a file may name but not
   *     change
   * @throws SecretException for the first file that does not decrypt, does not authenticate or is not a Secret
   *     gitfn applies, or whose name an earlier file took; nothing is returned then
   */
  public static List<DecryptedSecret> decrypt(List<EncryptedDocument> documents, List<AgeIdentity> identities,
      String namespace) throws SecretException {
    if (KubernetesNames.namespace(namespace).isPresent()) {
      throw new IllegalArgumentException(KubernetesNames.namespace(namespace).get());
    }
    if (documents.size() > MAX_SECRETS) {
      throw SecretException.tooLarge(documents.get(MAX_SECRETS).file(), "is one of " + documents.size()
          + " encrypted Secrets in the revision, more than the " + MAX_SECRETS + " gitfn decrypts; split them over"
          + " several FunctionRepositories");
    }
    AgeDataKeys keys = new AgeDataKeys(identities);
    Map<String, String> files = new HashMap<>();
    List<DecryptedSecret> secrets = new ArrayList<>();
    for (EncryptedDocument document : documents) {
      DecryptedDocument decrypted;
      try {
        decrypted = SopsFile.decrypt(document.file(), document.content(), keys);
      } catch (SopsException e) {
        throw SecretException.of(e);
      }
      Secret secret = SecretValidator.toSecret(document.file(), decrypted.document(), namespace);
      String name = secret.getMetadata().getName();
      String earlier = files.putIfAbsent(name, document.file());
      if (earlier != null) {
        throw SecretException.invalid(document.file(), "metadata.name: Secret `" + name + "` is also defined in "
            + earlier + "; declare each Secret in one file");
      }
      secrets.add(new DecryptedSecret(document.file(), secret, decrypted.recipient(),
          ContentDigest.of(secret.getData())));
    }
    return List.copyOf(secrets);
  }
}
