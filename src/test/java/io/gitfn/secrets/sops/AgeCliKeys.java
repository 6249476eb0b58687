package io.gitfn.secrets.sops;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * A {@link DataKeySource} over Debian's {@code age -d}, standing in for gitfn's own age code in the tests until that
 * is wired: it tries each identity file on each recipient's {@code enc}, in the file's order, as the controller will.
 */
record AgeCliKeys(Path age, Path dir, List<Path> identities) implements DataKeySource {

  @Override
  public DataKey unwrap(List<AgeRecipient> recipients) throws NoMatchingIdentity {
    for (AgeRecipient recipient : recipients) {
      for (Path identity : identities) {
        Tool result = Tool.run(dir, Map.of(), recipient.enc().getBytes(StandardCharsets.UTF_8),
            List.of(age.toString(), "-d", "-i", identity.toString()));
        if (result.exitCode() == 0) {
          return new DataKey(result.stdout(), recipient.recipient());
        }
      }
    }
    throw new NoMatchingIdentity("none of " + identities.size() + " identities opens any of the "
        + recipients.size() + " age recipients");
  }
}
