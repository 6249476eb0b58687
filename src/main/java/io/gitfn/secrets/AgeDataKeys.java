package io.gitfn.secrets;

import io.gitfn.secrets.age.AgeException;
import io.gitfn.secrets.age.AgeFile;
import io.gitfn.secrets.age.AgeIdentity;
import io.gitfn.secrets.sops.AgeRecipient;
import io.gitfn.secrets.sops.DataKey;
import io.gitfn.secrets.sops.DataKeySource;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A SOPS file's data key, opened with a repository's age identities: the seam between {@code secrets.sops}, which
 * knows the file, and {@code secrets.age}, which knows age. Each of the file's recipients is tried in the file's
 * order; the first that one of the identities opens gives the key. A recipient that cannot be opened for a reason
 * other than "not ours" (a passphrase stanza, a changed header) is named in the error if none opens, so that a
 * tampered entry is not reported as a missing key.
 */
public final class AgeDataKeys implements DataKeySource {

  /** SOPS's data key: AES-256. */
  private static final int DATA_KEY_LENGTH = 32;
  /** More recipients than any rotation needs; each costs a key agreement per identity. */
  static final int MAX_RECIPIENTS = 32;

  private final List<AgeIdentity> identities;

  public AgeDataKeys(List<AgeIdentity> identities) {
    this.identities = List.copyOf(identities);
  }

  @Override
  public DataKey unwrap(List<AgeRecipient> recipients) throws NoMatchingIdentity {
    if (recipients.size() > MAX_RECIPIENTS) {
      throw new NoMatchingIdentity("the file names " + recipients.size() + " age recipients; gitfn tries at most "
          + MAX_RECIPIENTS);
    }
    List<String> problems = new ArrayList<>();
    for (AgeRecipient recipient : recipients) {
      try {
        byte[] key = AgeFile.decrypt(recipient.enc().getBytes(StandardCharsets.US_ASCII), identities).plaintext();
        if (key.length != DATA_KEY_LENGTH) {
          problems.add(recipient.recipient() + ": its age file holds " + key.length + " bytes, not a 32-byte data key");
          continue;
        }
        return new DataKey(key, recipient.recipient());
      } catch (AgeException.NoMatchingIdentity e) {
        // Not one of ours: the next recipient may be.
      } catch (AgeException e) {
        problems.add(recipient.recipient() + ": " + e.getMessage());
      }
    }
    throw new NoMatchingIdentity("none of the " + identities.size() + " age identities opens any of the file's "
        + recipients.size() + " recipients (" + String.join(", ", recipients.stream().map(AgeRecipient::recipient)
            .toList()) + ")" + (problems.isEmpty() ? "" : "; " + String.join("; ", problems)));
  }
}
