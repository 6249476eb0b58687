/**
 * The SOPS file format, read in the JVM: a SOPS-encrypted YAML document (a Kubernetes Secret from the infra
 * repository) in, its decrypted tree out, or a {@link io.gitfn.secrets.sops.SopsException} saying why not. Pure:
 * bytes in, values out, no I/O, no {@code sops} binary, no plaintext on disk.
 *
 * <p>{@link io.gitfn.secrets.sops.SopsFile#decrypt} follows sops 3's own reader ({@code decrypt.DataWithFormat}):
 * the file is bounded before it is parsed ({@link io.gitfn.secrets.sops.SopsLimits}); the data key comes through
 * {@link io.gitfn.secrets.sops.DataKeySource}, the one seam to age, which gets the file's
 * {@link io.gitfn.secrets.sops.AgeRecipient} entries and answers with a {@link io.gitfn.secrets.sops.DataKey} and the
 * recipient that matched; each value is opened with AES-256-GCM and its key path as authenticated data; the MAC
 * (SHA-512 over the values in document order, itself encrypted with {@code lastmodified} as authenticated data) is
 * checked before the {@link io.gitfn.secrets.sops.DecryptedDocument} is handed out. One bad value refuses the file.
 *
 * <p>What is left out, each refused with a message rather than half-read: Shamir key groups, the comment-based
 * encryption rules, YAML aliases and tags, several documents in one file, and unencrypted values in the YAML forms
 * whose MAC bytes need Go's number and date formatting. YAML comments are not read: sops encrypts them but keeps
 * them out of the MAC, and an object applied to Kubernetes has none. No message, {@code toString()} or exception
 * holds a value.
 */
package io.gitfn.secrets.sops;
