package io.gitfn.reconcile.repository;

import static io.gitfn.api.repository.RepositoryConditionReason.DECRYPTION_FAILED;
import static io.gitfn.api.repository.RepositoryConditionReason.INVALID_SECRET;

import io.gitfn.api.repository.Decryption;
import io.gitfn.manifest.EncryptedDocument;
import io.gitfn.manifest.Manifest;
import io.gitfn.notify.CommitState;
import io.gitfn.reconcile.ForgeReports.Verdict;
import io.gitfn.reconcile.SourceBinding;
import io.gitfn.reconcile.StepFailure;
import io.gitfn.secrets.DecryptedSecret;
import io.gitfn.secrets.SecretDecryptor;
import io.gitfn.secrets.SecretException;
import io.gitfn.secrets.age.AgeIdentities;
import io.gitfn.secrets.age.AgeIdentity;
import io.gitfn.secrets.age.AgeException.MalformedIdentity;
import io.gitfn.source.Revision;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Decrypts the SOPS-encrypted Secrets of a revision with the age identities {@code spec.decryption} names, in
 * memory: all of them or none, so one bad file refuses the whole revision and what ran keeps running. The
 * identities are read at every full pass, per repository, and kept nowhere, so a restart costs nothing.
 */
final class RevisionSecrets {

  /** The identity entries of a decryption Secret, as Flux's kustomize-controller reads them. */
  static final String AGE_KEY = ".agekey";

  private final SourceBinding sources;

  RevisionSecrets(SourceBinding sources) {
    this.sources = sources;
  }

  /**
   * The revision's Secrets, and the key their digests on Functions are made with (a hash of the identities: secret,
   * and the same in every process).
   */
  record Decrypted(List<DecryptedSecret> secrets, byte[] digestKey) {
    static final Decrypted NONE = new Decrypted(List.of(), new byte[0]);
  }

  Decrypted decrypt(RepositoryState state, Revision revision, Manifest manifest) throws StepFailure {
    List<EncryptedDocument> documents = manifest.encryptedSecrets();
    if (documents.isEmpty()) {
      return Decrypted.NONE;
    }
    Decryption decryption = state.resource().getSpec().getDecryption();
    if (decryption == null) {
      EncryptedDocument first = documents.get(0);
      throw refused(state, revision, first.file() + ":" + first.line() + ": a SOPS-encrypted Secret, and"
          + " spec.decryption is not set: name a Secret of age identities there (docs/security.md#encrypted-secrets)");
    }
    String namespace = state.resource().getMetadata().getNamespace();
    String name = decryption.getSecretRef() == null ? null : decryption.getSecretRef().getName();
    Map<String, String> data = new TreeMap<>(sources.secret(namespace, name, "spec.decryption.secretRef"));
    List<AgeIdentity> identities = new ArrayList<>();
    MessageDigest digestKey = sha256();
    digestKey.update("gitfn secrets digest\n".getBytes(StandardCharsets.UTF_8));
    for (Map.Entry<String, String> entry : data.entrySet()) {
      if (!entry.getKey().endsWith(AGE_KEY)) {
        continue;
      }
      try {
        identities.addAll(AgeIdentities.parse(entry.getKey(), entry.getValue()));
      } catch (MalformedIdentity e) {
        throw StepFailure.stalled(INVALID_SECRET, "spec.decryption.secretRef " + namespace + "/" + name + ": "
            + e.getMessage());
      }
      digestKey.update(entry.getValue().getBytes(StandardCharsets.UTF_8));
    }
    if (identities.isEmpty()) {
      throw StepFailure.stalled(INVALID_SECRET, "spec.decryption.secretRef " + namespace + "/" + name + " has no"
          + " *" + AGE_KEY + " entry: put age identities (AGE-SECRET-KEY-1…, as age-keygen writes them) in one");
    }
    try {
      return new Decrypted(SecretDecryptor.decrypt(documents, identities, namespace), digestKey.digest());
    } catch (SecretException e) {
      throw refused(state, revision, e.reason().value() + ": " + e.getMessage());
    }
  }

  private static StepFailure.Stalled refused(RepositoryState state, Revision revision, String why) {
    String stays = state.whatStays();
    state.verdict(new Verdict(revision, CommitState.FAILURE, DECRYPTION_FAILED, why + " (nothing of " + revision
        + " was applied; " + stays + ")"));
    return StepFailure.stalled(DECRYPTION_FAILED, "revision " + revision + " was not applied: " + why + "; "
        + stays);
  }

  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("the JDK lacks SHA-256", e);
    }
  }
}
