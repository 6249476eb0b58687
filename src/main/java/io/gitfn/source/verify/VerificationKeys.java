package io.gitfn.source.verify;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The public keys one repository trusts, read from its verification Secret's data, as Flux's source-controller
 * reads them: {@code *.asc} entries hold armored OpenPGP public keys, {@code *.sshpub} entries hold
 * {@code authorized_keys} lines, and an optional {@code allowed_signers} entry holds git's allowed-signers lines
 * (principals and options). Other entries are left alone, so one Secret can carry more than keys.
 *
 * <p>Each repository gets its own instance and verification takes it as an argument; nothing is registered
 * globally, so one tenant's keys can never verify another tenant's commits. Lookups are hash maps, built once.
 */
public final class VerificationKeys {

  /** The most bytes one entry may have: a key ring with many user IDs and subkeys stays far below. */
  public static final int MAX_ENTRY_BYTES = 64 * 1024;
  /** The most keys (OpenPGP keys and subkeys, SSH keys) one Secret may hold. */
  public static final int MAX_KEYS = 100;

  private final List<OpenPgpKey> openPgp;
  private final List<SshKey> ssh;
  private final Map<String, OpenPgpKey> openPgpByFingerprint = new HashMap<>();
  private final Map<Long, OpenPgpKey> openPgpById = new HashMap<>();
  private final Map<String, SshKey> sshByBlob = new HashMap<>();

  private VerificationKeys(List<OpenPgpKey> openPgp, List<SshKey> ssh) {
    this.openPgp = List.copyOf(openPgp);
    this.ssh = List.copyOf(ssh);
    for (OpenPgpKey key : this.openPgp) {
      openPgpByFingerprint.putIfAbsent(key.fingerprint(), key);
      openPgpById.putIfAbsent(key.keyId(), key);
    }
    for (SshKey key : this.ssh) {
      // The first line that lists a key decides its principals and options, as ssh-keygen's first match does.
      sshByBlob.putIfAbsent(key.blob(), key);
    }
  }

  /** No keys: nothing verifies. The forge keys of a repository that trusts no forge. */
  public static VerificationKeys none() {
    return new VerificationKeys(List.of(), List.of());
  }

  /**
   * The keys in a Secret's data. Entries are read in name order, so a message names the same entry every time.
   *
   * @throws KeyDataException naming the entry (and line) that is too large, holds garbage, or brings the Secret
   *     over {@link #MAX_KEYS}; or saying that no entry holds a key
   */
  public static VerificationKeys fromSecretData(Map<String, byte[]> data) throws KeyDataException {
    List<OpenPgpKey> openPgp = new ArrayList<>();
    List<SshKey> ssh = new ArrayList<>();
    for (Map.Entry<String, byte[]> entry : new TreeMap<>(data).entrySet()) {
      String name = entry.getKey();
      byte[] bytes = entry.getValue() == null ? new byte[0] : entry.getValue();
      boolean keys = name.endsWith(".asc") || name.endsWith(".sshpub") || name.equals("allowed_signers");
      if (!keys) {
        continue;
      }
      if (bytes.length > MAX_ENTRY_BYTES) {
        throw new KeyDataException("entry " + name + " is " + bytes.length + " bytes, more than the limit of "
            + MAX_ENTRY_BYTES + "; a Secret of verification keys holds public keys only");
      }
      int room = MAX_KEYS - openPgp.size() - ssh.size();
      if (name.endsWith(".asc")) {
        openPgp.addAll(OpenPgpKeyRings.parse(name, bytes, room));
      } else if (name.endsWith(".sshpub")) {
        ssh.addAll(SshKeyLines.authorizedKeys(name, bytes, room));
      } else {
        ssh.addAll(SshKeyLines.allowedSigners(name, bytes, room));
      }
    }
    if (openPgp.isEmpty() && ssh.isEmpty()) {
      throw new KeyDataException("the Secret holds no key: put OpenPGP public keys in *.asc entries, SSH public keys"
          + " in *.sshpub entries (authorized_keys lines) or an allowed_signers entry");
    }
    return new VerificationKeys(openPgp, ssh);
  }

  public List<OpenPgpKey> openPgp() {
    return openPgp;
  }

  public List<SshKey> ssh() {
    return ssh;
  }

  public boolean isEmpty() {
    return openPgp.isEmpty() && ssh.isEmpty();
  }

  /** The OpenPGP key with this fingerprint (uppercase hex). */
  Optional<OpenPgpKey> openPgpByFingerprint(String fingerprint) {
    return Optional.ofNullable(openPgpByFingerprint.get(fingerprint));
  }

  /** The OpenPGP key with this 64-bit key ID. */
  Optional<OpenPgpKey> openPgpById(long keyId) {
    return Optional.ofNullable(openPgpById.get(keyId));
  }

  /** The SSH key whose wire blob, in base64, is this. */
  Optional<SshKey> sshByBlob(String blob) {
    return Optional.ofNullable(sshByBlob.get(blob));
  }

  @Override
  public String toString() {
    return "VerificationKeys[" + openPgp.size() + " OpenPGP, " + ssh.size() + " SSH]";
  }
}
