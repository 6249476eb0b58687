/**
 * age (https://age-encryption.org/v1) for SOPS: opens the small age files in which a SOPS document wraps its data
 * key, with the X25519 identities of a decryption Secret. Pure: byte arrays and strings in, no file, process or
 * network; the JDK's X25519, HMAC-SHA-256 and ChaCha20-Poly1305 underneath, so no {@code age} or {@code sops}
 * binary and no plaintext on disk.
 *
 * <pre>{@code
 * List<AgeIdentity> identities = AgeIdentities.parse("identity.agekey", entryText);  // Flux's *.agekey entries
 * AgeFile.Decrypted key = AgeFile.decrypt(enc.getBytes(US_ASCII), identities);      // armored or binary
 * key.plaintext();   // SOPS's data key
 * key.recipient();   // age1..., for status: which recipient matched
 * }</pre>
 *
 * <p>Files come from a Git repository, so from anyone who can push: a file is bounded in size
 * ({@link io.gitfn.secrets.age.AgeFile#MAX_BYTES}) and in stanzas before anything is tried, a passphrase stanza is
 * refused rather than run, and each failure is its own {@link io.gitfn.secrets.age.AgeException} whose message holds
 * no key material and no plaintext.
 */
package io.gitfn.secrets.age;
