package io.gitfn.secrets.age;

import io.gitfn.secrets.age.AgeException.HeaderMacMismatch;
import io.gitfn.secrets.age.AgeException.MalformedFile;
import io.gitfn.secrets.age.AgeException.NoMatchingIdentity;
import io.gitfn.secrets.age.AgeException.RefusedStanza;
import java.security.InvalidKeyException;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Opens an age v1 file (https://age-encryption.org/v1) with X25519 identities, all in memory. Built for the small
 * files SOPS writes (an armored file whose payload is its 32-byte data key), so the input is bounded before it is
 * parsed, and nothing an attacker sizes is tried: a passphrase stanza is refused, not run.
 */
public final class AgeFile {

  /** The largest file read, armored or not. SOPS's are 200-400 bytes per recipient. */
  public static final int MAX_BYTES = 16 * 1024;

  private static final String X25519_TYPE = "X25519";
  private static final String SCRYPT_TYPE = "scrypt";
  private static final String X25519_LABEL = "age-encryption.org/v1/X25519";
  private static final int FILE_KEY_LENGTH = 16;
  private static final int MAX_TYPE_SHOWN = 40;

  /**
   * A file's plaintext, with the recipient whose identity opened it (for status: which key matched). The array is
   * the caller's; it is the secret, so it belongs in no message or log.
   */
  public record Decrypted(byte[] plaintext, AgeRecipient recipient) {

    @Override
    public String toString() {
      return "Decrypted[" + plaintext.length + " bytes for " + recipient + "]";
    }
  }

  private record X25519Stanza(int index, byte[] share, byte[] body) {}

  private AgeFile() {}

  /**
   * Decrypts {@code file}, binary or ASCII-armored, trying each identity in order against each X25519 stanza.
   * Stanzas of other types are skipped, as age skips them, except {@code scrypt}, which is refused.
   *
   * @throws MalformedFile larger than {@link #MAX_BYTES}, more than 64 stanzas, or not a well-formed age file
   * @throws RefusedStanza the file has a passphrase ({@code scrypt}) stanza
   * @throws NoMatchingIdentity no identity opens any X25519 stanza
   * @throws HeaderMacMismatch a stanza opened but the header was changed after it was written
   * @throws AgeException.MalformedPayload the payload was changed or cut short
   */
  public static Decrypted decrypt(byte[] file, List<AgeIdentity> identities) throws AgeException {
    if (file.length > MAX_BYTES) {
      throw new MalformedFile("age file of " + file.length + " bytes; gitfn reads at most " + MAX_BYTES
          + " (a SOPS data key's is a few hundred)");
    }
    byte[] binary = Armor.isArmored(file) ? Armor.decode(file) : file;
    AgeHeader header = AgeHeader.parse(binary);
    List<X25519Stanza> stanzas = x25519Stanzas(header);
    for (AgeIdentity identity : identities) {
      for (X25519Stanza stanza : stanzas) {
        Optional<byte[]> fileKey = unwrap(identity, stanza);
        if (fileKey.isPresent()) {
          checkMac(fileKey.get(), header, binary, identity.recipient());
          return new Decrypted(Payload.open(fileKey.get(), binary, header.payloadOffset()), identity.recipient());
        }
      }
    }
    throw new NoMatchingIdentity(identities.stream().map(AgeIdentity::recipient).toList(), stanzas.size(),
        otherTypes(header));
  }

  private static List<X25519Stanza> x25519Stanzas(AgeHeader header) throws MalformedFile, RefusedStanza {
    List<X25519Stanza> found = new ArrayList<>();
    for (int i = 0; i < header.stanzas().size(); i++) {
      Stanza stanza = header.stanzas().get(i);
      int number = i + 1;
      if (stanza.type().equals(SCRYPT_TYPE)) {
        throw new RefusedStanza("age file encrypted with a passphrase (an scrypt stanza, whose work factor the "
            + "file's author chooses); gitfn does not try passphrases: encrypt to an age1 recipient instead");
      }
      if (stanza.type().equals(X25519_TYPE)) {
        if (stanza.args().size() != 1) {
          throw new MalformedFile("age stanza " + number + ": an X25519 stanza has one argument, its share");
        }
        byte[] share = AgeHeader.unpaddedBase64(stanza.args().get(0), "age stanza " + number + "'s share");
        if (share.length != X25519.LENGTH || stanza.body().length != FILE_KEY_LENGTH + ChaCha20Poly1305.TAG_LENGTH) {
          throw new MalformedFile("age stanza " + number + ": an X25519 share is 32 bytes and its body 32");
        }
        found.add(new X25519Stanza(number, share, stanza.body()));
      }
    }
    return found;
  }

  private static Optional<byte[]> unwrap(AgeIdentity identity, X25519Stanza stanza) throws MalformedFile {
    byte[] sharedSecret;
    try {
      sharedSecret = identity.sharedSecret(stanza.share());
    } catch (InvalidKeyException e) {
      throw new MalformedFile("age stanza " + stanza.index() + ": its X25519 share is a low-order point");
    }
    byte[] publicKey = identity.publicKey();
    byte[] salt = new byte[X25519.LENGTH * 2];
    System.arraycopy(stanza.share(), 0, salt, 0, X25519.LENGTH);
    System.arraycopy(publicKey, 0, salt, X25519.LENGTH, X25519.LENGTH);
    byte[] wrapKey = Hkdf.sha256(sharedSecret, salt, X25519_LABEL);
    return ChaCha20Poly1305.open(wrapKey, new byte[ChaCha20Poly1305.NONCE_LENGTH], stanza.body(), 0,
        stanza.body().length);
  }

  private static void checkMac(byte[] fileKey, AgeHeader header, byte[] binary, AgeRecipient recipient)
      throws HeaderMacMismatch {
    byte[] macKey = Hkdf.sha256(fileKey, new byte[0], "header");
    byte[] mac = Hkdf.hmac(macKey, binary, 0, header.macedLength());
    if (!MessageDigest.isEqual(mac, header.mac())) {
      throw new HeaderMacMismatch("age header MAC does not match: the identity for " + recipient
          + " opened a stanza, but the header was changed after it was written");
    }
  }

  private static List<String> otherTypes(AgeHeader header) {
    Set<String> types = new LinkedHashSet<>();
    for (Stanza stanza : header.stanzas()) {
      if (!stanza.type().equals(X25519_TYPE)) {
        types.add(stanza.type().length() > MAX_TYPE_SHOWN
            ? stanza.type().substring(0, MAX_TYPE_SHOWN) + "..." : stanza.type());
      }
    }
    return List.copyOf(types);
  }
}
