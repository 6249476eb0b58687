package io.gitfn.source.verify;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What verifying a revision in one mode found.
 *
 * @param mode the mode verified in
 * @param checks every object checked, in the order checked; a refusal stops the checking, so it is the last
 * @param refused the first object that did not verify, empty when the revision verified
 */
public record Verdict(VerifyMode mode, List<SignatureCheck> checks, Optional<SignatureCheck> refused) {

  public Verdict {
    Objects.requireNonNull(mode, "mode");
    checks = List.copyOf(checks);
    Objects.requireNonNull(refused, "refused");
  }

  static Verdict of(VerifyMode mode, List<SignatureCheck> checks) {
    return new Verdict(mode, checks, checks.stream().filter(c -> !c.verified()).findFirst());
  }

  public boolean verified() {
    return refused.isEmpty();
  }

  /** The reason a condition shows when the revision is refused. */
  public Optional<Failure> failure() {
    return refused.flatMap(SignatureCheck::failure);
  }

  /**
   * The signature that vouches for the revision: the last one checked (the head in {@code Range} and
   * {@code TagAndHEAD}), empty when refused or when {@code Range} found no new commit.
   */
  public Optional<SignatureCheck> signer() {
    return verified() && !checks.isEmpty() ? Optional.of(checks.get(checks.size() - 1)) : Optional.empty();
  }

  /** One line for a condition's message. */
  public String message() {
    if (refused.isPresent()) {
      return refused.get().describe();
    }
    if (checks.isEmpty()) {
      return "no new commit to verify";
    }
    SignatureCheck last = checks.get(checks.size() - 1);
    return checks.size() == 1 ? last.describe()
        : checks.size() + " objects verified; " + last.describe();
  }
}
