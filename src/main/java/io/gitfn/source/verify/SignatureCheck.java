package io.gitfn.source.verify;

import java.util.Objects;
import java.util.Optional;

/**
 * What checking one commit or annotated tag found.
 *
 * @param object the commit's or tag object's id, 40 hex digits
 * @param type {@code commit} or {@code tag}
 * @param failure empty when the signature verified
 * @param fingerprint the signing key's fingerprint ({@code SHA256:…} for SSH, 40 hex digits for OpenPGP), or ""
 *     when the object names no key
 * @param signer who the key belongs to: the OpenPGP key's user ID, or the SSH key's principals or comment; ""
 *     when unknown
 * @param detail one sentence a person can act on
 */
public record SignatureCheck(
    String object, String type, Optional<Failure> failure, String fingerprint, String signer, String detail) {

  public SignatureCheck {
    Objects.requireNonNull(object, "object");
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(failure, "failure");
    fingerprint = Objects.requireNonNullElse(fingerprint, "");
    signer = Objects.requireNonNullElse(signer, "");
    detail = Objects.requireNonNullElse(detail, "");
  }

  static SignatureCheck verified(SignedPayload payload, String fingerprint, String signer, String detail) {
    return new SignatureCheck(payload.object(), payload.type(), Optional.empty(), fingerprint, signer, detail);
  }

  static SignatureCheck refused(
      SignedPayload payload, Failure failure, String fingerprint, String signer, String detail) {
    return new SignatureCheck(payload.object(), payload.type(), Optional.of(failure), fingerprint, signer, detail);
  }

  public boolean verified() {
    return failure.isEmpty();
  }

  /** "commit 1a2b3c4…: detail", for a condition's message. */
  public String describe() {
    return type + " " + object + (failure.map(f -> " (" + f + ")").orElse("")) + ": " + detail;
  }
}
