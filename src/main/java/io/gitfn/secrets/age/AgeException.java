package io.gitfn.secrets.age;

/**
 * Why age could not be used, one class per kind so that a caller can tell them apart. No message holds key
 * material: it names the entry and the line.
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
}
