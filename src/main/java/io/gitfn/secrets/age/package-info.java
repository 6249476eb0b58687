/**
 * age (https://age-encryption.org/v1) for SOPS: the X25519 identities of a decryption Secret. Pure: strings in, no
 * file, process or network; the JDK's X25519 underneath, so no {@code age} binary.
 *
 * <pre>{@code
 * List<AgeIdentity> identities = AgeIdentities.parse("identity.agekey", entryText);  // Flux's *.agekey entries
 * identities.get(0).recipient();                                                   // age1..., for status
 * }</pre>
 */
package io.gitfn.secrets.age;
