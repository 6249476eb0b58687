package io.gitfn.secrets.sops;

import java.util.List;

/**
 * Where the data key comes from: the seam between the SOPS format and age. The controller's implementation tries
 * the repository's age identities on each recipient's {@code enc}; tests may hand a known key straight back.
 */
@FunctionalInterface
public interface DataKeySource {

  /**
   * The data key from the first recipient one of the identities opens.
   *
   * @param recipients the file's {@code sops.age} entries, in the file's order, never empty
   * @throws NoMatchingIdentity when no identity opens any entry; also when an entry is one it refuses to try (an
   *     age {@code scrypt} stanza), which its message then says. The file's name is added by the caller.
   */
  DataKey unwrap(List<AgeRecipient> recipients) throws NoMatchingIdentity;

  /** None of the identities opens any of the recipients; the message may name the recipients, never a key. */
  final class NoMatchingIdentity extends Exception {
    public NoMatchingIdentity(String message) {
      super(message, null, false, true);
    }
  }
}
