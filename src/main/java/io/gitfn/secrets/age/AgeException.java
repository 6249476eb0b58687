package io.gitfn.secrets.age;

import java.util.List;

/**
 * Why an age file or an identity could not be used. Each kind is its own class, so that a caller can report
 * "no matching identity" apart from "tampered with". No message holds key material, a file key or plaintext: they
 * name lines, stanzas, chunks and recipients only.
 */
public abstract sealed class AgeException extends Exception {

  private AgeException(String message) {
    super(message);
  }

  /** An identities entry (a Secret's {@code *.agekey}) with a line that is not an age X25519 identity, or none. */
  public static final class MalformedIdentity extends AgeException {
    private final String entry;
    private final int line;

    MalformedIdentity(String entry, int line, String why) {
      super(line == 0 ? "entry " + entry + ": " + why : "entry " + entry + " line " + line + ": " + why);
      this.entry = entry;
      this.line = line;
    }

    public String entry() {
      return entry;
    }

    /** The 1-based line at fault, or 0 when the entry as a whole is (it holds no identity). */
    public int line() {
      return line;
    }
  }

  /** The file is not a well-formed age file, or is larger, or has more stanzas, than gitfn reads. */
  public static final class MalformedFile extends AgeException {
    MalformedFile(String message) {
      super(message);
    }
  }

  /**
   * The file has a stanza gitfn will not try: a passphrase ({@code scrypt}) stanza, whose work factor the file's
   * author chooses, so trying it lets anyone who can push a file make the controller spin.
   */
  public static final class RefusedStanza extends AgeException {
    RefusedStanza(String message) {
      super(message);
    }
  }

  /**
   * None of the identities held opens any X25519 stanza. An age file does not name its recipients (a stanza holds
   * only an ephemeral share), so this names the recipients held and counts the stanzas; a SOPS file lists its
   * recipients beside each wrapped key and can name them.
   */
  public static final class NoMatchingIdentity extends AgeException {
    private final List<AgeRecipient> held;
    private final int x25519Stanzas;
    private final List<String> otherStanzaTypes;

    NoMatchingIdentity(List<AgeRecipient> held, int x25519Stanzas, List<String> otherStanzaTypes) {
      super(message(held, x25519Stanzas, otherStanzaTypes));
      this.held = List.copyOf(held);
      this.x25519Stanzas = x25519Stanzas;
      this.otherStanzaTypes = List.copyOf(otherStanzaTypes);
    }

    private static String message(List<AgeRecipient> held, int x25519Stanzas, List<String> otherStanzaTypes) {
      String holding = held.isEmpty()
          ? "no age identity is held"
          : "none of the identities held (recipients "
              + String.join(", ", held.stream().map(AgeRecipient::value).toList()) + ") opens any of the file's " + x25519Stanzas + " X25519 stanza" + (x25519Stanzas == 1 ? "" : "s");
      String others = otherStanzaTypes.isEmpty()
          ? ""
          : "; the file's stanzas of type " + String.join(", ", otherStanzaTypes) + " are not read by gitfn";
      return holding + others;
    }

    /** The recipients of the identities that were tried. */
    public List<AgeRecipient> held() {
      return held;
    }

    public int x25519Stanzas() {
      return x25519Stanzas;
    }

    /** The types of the file's stanzas that are neither X25519 nor scrypt, each once, in file order. */
    public List<String> otherStanzaTypes() {
      return otherStanzaTypes;
    }
  }

  /**
   * An identity opened a stanza but the header's MAC does not match: the header was changed after it was written
   * (a stanza added, removed or altered), or the MAC itself was.
   */
  public static final class HeaderMacMismatch extends AgeException {
    HeaderMacMismatch(String message) {
      super(message);
    }
  }

  /** The header is authentic but the payload is not: it was cut short, changed, or has bytes after its end. */
  public static final class MalformedPayload extends AgeException {
    MalformedPayload(String message) {
      super(message);
    }
  }
}
