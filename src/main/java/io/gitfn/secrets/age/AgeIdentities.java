package io.gitfn.secrets.age;

import io.gitfn.secrets.age.AgeException.MalformedIdentity;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Reads age identities from a Secret entry as Flux's kustomize-controller reads a {@code *.agekey} entry, and as
 * {@code age -i} reads a key file: one {@code AGE-SECRET-KEY-1...} per line, blank lines and {@code #} comments
 * (age-keygen writes two) skipped.
 */
public final class AgeIdentities {

  static final String HRP = "AGE-SECRET-KEY-";

  private AgeIdentities() {}

  /**
   * The identities in {@code text}, in order. {@code entry} names the entry in messages ({@code identity.agekey} of
   * Secret {@code sops-age}, say); a message names the line at fault and never repeats what is on it.
   */
  public static List<AgeIdentity> parse(String entry, String text) throws MalformedIdentity {
    List<AgeIdentity> identities = new ArrayList<>();
    String[] lines = text.split("\n", -1);
    for (int i = 0; i < lines.length; i++) {
      String line = lines[i].strip();
      if (!line.isEmpty() && !line.startsWith("#")) {
        identities.add(identity(line, entry, i + 1));
      }
    }
    if (identities.isEmpty()) {
      throw new MalformedIdentity(entry, 0, "no AGE-SECRET-KEY-1 line; age-keygen writes one");
    }
    return List.copyOf(identities);
  }

  private static AgeIdentity identity(String line, String entry, int number) throws MalformedIdentity {
    if (line.startsWith("age1")) {
      throw new MalformedIdentity(entry, number, "an age1 recipient, a public key; the entry needs the identity, "
          + "the AGE-SECRET-KEY-1 line age-keygen wrote");
    }
    if (line.toUpperCase(Locale.ROOT).startsWith("AGE-PLUGIN-")) {
      throw new MalformedIdentity(entry, number, "an age plugin identity; gitfn reads only X25519 identities, "
          + "AGE-SECRET-KEY-1 lines");
    }
    if (!line.startsWith(HRP + "1")) {
      throw new MalformedIdentity(entry, number, "not an age identity: it does not start with AGE-SECRET-KEY-1");
    }
    Bech32.Decoded decoded;
    try {
      decoded = Bech32.decode(line);
    } catch (IllegalArgumentException e) {
      throw new MalformedIdentity(entry, number, "not an age identity: " + e.getMessage());
    }
    if (!decoded.hrp().equals(HRP)) {
      throw new MalformedIdentity(entry, number, "not an age identity: it does not start with AGE-SECRET-KEY-1");
    }
    if (decoded.data().length != X25519.LENGTH) {
      throw new MalformedIdentity(entry, number,
          "not an age identity: it holds " + decoded.data().length + " bytes, not 32");
    }
    return new AgeIdentity(decoded.data());
  }
}
