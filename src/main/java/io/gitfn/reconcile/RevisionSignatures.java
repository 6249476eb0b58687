package io.gitfn.reconcile;

import static io.gitfn.api.repository.RepositoryConditionReason.INVALID_SECRET;
import static io.gitfn.api.repository.RepositoryConditionReason.SOURCE_READ_FAILED;

import io.gitfn.api.VerificationStatus;
import io.gitfn.source.MirrorCache;
import io.gitfn.source.Revision;
import io.gitfn.source.SourceException;
import io.gitfn.source.verify.KeyDataException;
import io.gitfn.source.verify.MirrorSignatures;
import io.gitfn.source.verify.RevisionVerifier;
import io.gitfn.source.verify.VerificationKeys;
import io.gitfn.source.verify.VerifyMode;
import io.gitfn.trigger.TrackedSource;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Verifies the signatures of a fetched revision with the keys of the resource that tracks it: reads the resource's
 * key Secret, then checks the revision in the mirror (the commit, its tag, or every commit since the last verified
 * one). It holds nothing of a resource's own: a FunctionRepository ({@code spec.verify}) and a Git-sourced
 * Function (its {@code gitfn.io/verify-*} annotations) verify through it alike.
 *
 * <p>Keys are read and parsed on every call, per resource: nothing is shared between tenants or kept between
 * passes, so a restart costs nothing and a key removed from the Secret is distrusted at the next pass.
 */
public final class RevisionSignatures {

  /** Entries of the key Secret with these endings hold a forge's keys, trusted only for merges of signed commits. */
  public static final String FORGE_OPENPGP = ".forge.asc";
  public static final String FORGE_SSH = ".forge.sshpub";

  private final SourceBinding sources;
  private final MirrorCache mirrors;
  private final Clock clock;

  public RevisionSignatures(SourceBinding sources, MirrorCache mirrors, Clock clock) {
    this.sources = sources;
    this.mirrors = mirrors;
    this.clock = clock;
  }

  /**
   * What to verify.
   *
   * @param secretField how the resource names the key Secret, for messages ({@code spec.verify.secretRef})
   * @param last the resource's {@code status.verification}, where {@code Range} starts; null when there is none yet
   */
  public record Request(String namespace, String secretName, String secretField, VerifyMode mode,
      TrackedSource source, Revision revision, VerificationStatus last) {}

  /**
   * Verifies {@code request}'s revision.
   *
   * @throws StepFailure stalled when the Secret is missing or holds no usable key (naming the entry), retried when
   *     the mirror cannot be read just now
   */
  public MirrorSignatures.Checked verify(Request request) throws StepFailure {
    RevisionVerifier verifier = verifier(request);
    Revision revision = request.revision();
    try {
      return MirrorSignatures.verify(mirrors, request.source().url(), request.source().credentials(), revision,
          request.mode(), verifier, request.mode() == VerifyMode.Range ? VerifiedRevisions.rangeStart(request.last())
              : Optional.empty());
    } catch (SourceException e) {
      if (Failures.stalls(e)) {
        throw StepFailure.stalled(SOURCE_READ_FAILED, "cannot verify " + revision + ": " + Failures.message(e));
      }
      throw StepFailure.retry(SOURCE_READ_FAILED, "verifying " + revision + " failed and will be retried: "
          + Failures.message(e), e);
    } catch (IllegalArgumentException e) {
      // The tag moved between the check and the read: the next check resolves it again.
      throw StepFailure.retry(SOURCE_READ_FAILED, "verifying " + revision + ": " + e.getMessage(), e);
    }
  }

  private RevisionVerifier verifier(Request request) throws StepFailure {
    Map<String, String> data = sources.secret(request.namespace(), request.secretName(), request.secretField());
    Map<String, byte[]> own = new HashMap<>();
    Map<String, byte[]> forge = new HashMap<>();
    data.forEach((name, value) -> {
      byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
      // A forge entry still ends in .asc or .sshpub, so the key reader takes it as what it is.
      if (name.endsWith(FORGE_OPENPGP) || name.endsWith(FORGE_SSH)) {
        forge.put(name, bytes);
      } else {
        own.put(name, bytes);
      }
    });
    String at = request.secretField() + " " + request.namespace() + "/" + request.secretName();
    try {
      VerificationKeys keys = VerificationKeys.fromSecretData(own);
      VerificationKeys forgeKeys = forge.isEmpty() ? VerificationKeys.none() : VerificationKeys.fromSecretData(forge);
      return new RevisionVerifier(keys, forgeKeys, clock);
    } catch (KeyDataException e) {
      throw StepFailure.stalled(INVALID_SECRET, at + ": " + e.getMessage());
    }
  }
}
