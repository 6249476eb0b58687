package io.gitfn.source.verify;

import java.time.Clock;
import java.util.Objects;
import org.eclipse.jgit.revwalk.RevCommit;
import org.eclipse.jgit.revwalk.RevTag;

/** Checks one commit's or annotated tag's signature against one set of keys, whichever format it is in. */
final class SignatureChecker {

  private final VerificationKeys keys;
  private final Clock clock;

  SignatureChecker(VerificationKeys keys, Clock clock) {
    this.keys = Objects.requireNonNull(keys, "keys");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /** The commit must have its body parsed (a {@code RevWalk} that retains bodies, as by default). */
  SignatureCheck check(RevCommit commit) {
    return check(SignedPayload.of(commit), Failure.UnsignedCommit);
  }

  SignatureCheck check(RevTag tag) {
    return check(SignedPayload.of(tag), Failure.UnsignedTag);
  }

  private SignatureCheck check(SignedPayload payload, Failure unsigned) {
    if (payload.signature().isEmpty()) {
      return SignatureCheck.refused(payload, unsigned, "", "", "the " + payload.type() + " is not signed");
    }
    String header = payload.armorHeader();
    if (header.equals("-----BEGIN PGP SIGNATURE-----")) {
      return OpenPgpSignatures.check(payload, keys, clock.instant());
    }
    if (header.equals("-----BEGIN SSH SIGNATURE-----")) {
      return SshSignatures.check(payload, keys, clock.instant());
    }
    return SignatureCheck.refused(payload, Failure.BadSignature, "", "",
        "the " + payload.type() + " is signed in a format gitfn does not verify (" + header
            + "); sign with OpenPGP or SSH");
  }
}
