/**
 * Signature verification of fetched revisions (issue 30): whether a commit or annotated tag in gitfn's mirror is
 * signed by a key its repository trusts, with OpenPGP or SSH, before the revision is applied.
 *
 * <pre>{@code
 * VerificationKeys keys = VerificationKeys.fromSecretData(secret.getData());   // *.asc, *.sshpub, allowed_signers
 * RevisionVerifier verifier = new RevisionVerifier(keys, VerificationKeys.none(), clock);
 * Verdict verdict = verifier.verify(repository, VerifyMode.Range, new Target(head, null, lastVerified));
 * verdict.verified(); verdict.failure();  // UnsignedCommit, UnknownKey, ExpiredKey, RevokedKey, BadSignature, …
 * }</pre>
 *
 * <p>Everything here is per call: keys are arguments, not a global keyring, a {@code $GNUPGHOME} or JGit's global
 * signature verifiers, because one controller serves many tenants and one tenant's keys must never verify
 * another's commits. No {@code gpg} or {@code ssh-keygen} binary is run.
 */
package io.gitfn.source.verify;
