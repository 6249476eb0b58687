package io.gitfn.secrets.age;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.gitfn.secrets.age.AgeException.HeaderMacMismatch;
import io.gitfn.secrets.age.AgeException.MalformedFile;
import io.gitfn.secrets.age.AgeException.MalformedPayload;
import io.gitfn.secrets.age.AgeException.NoMatchingIdentity;
import io.gitfn.secrets.age.AgeException.RefusedStanza;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class AgeFileTest {

  private static AgeTool.KeyPair alice;
  private static AgeTool.KeyPair bob;
  private static AgeIdentity aliceIdentity;
  private static AgeIdentity bobIdentity;
  private static final byte[] DATA_KEY = CraftedAgeFile.random(32);

  @BeforeAll
  static void keys() throws Exception {
    alice = AgeTool.keygen();
    bob = AgeTool.keygen();
    aliceIdentity = AgeIdentities.parse("alice.agekey", alice.identityFile()).get(0);
    bobIdentity = AgeIdentities.parse("bob.agekey", bob.identityFile()).get(0);
  }

  @Test
  void opensWhatAgeWroteForTwoRecipientsArmoredOrNotWithEitherIdentity() throws Exception {
    for (boolean armor : new boolean[] {true, false}) {
      byte[] file = AgeTool.encrypt(DATA_KEY, armor, alice.recipient(), bob.recipient());

      AgeFile.Decrypted byAlice = AgeFile.decrypt(file, List.of(aliceIdentity));
      AgeFile.Decrypted byBob = AgeFile.decrypt(file, List.of(bobIdentity));

      assertThat(byAlice.plaintext()).as("armored: " + armor).isEqualTo(DATA_KEY);
      assertThat(byAlice.recipient().value()).isEqualTo(alice.recipient());
      assertThat(byBob.plaintext()).isEqualTo(DATA_KEY);
      assertThat(byBob.recipient().value()).isEqualTo(bob.recipient());
    }
  }

  @Test
  void triesEachIdentityAndSaysWhichRecipientMatched() throws Exception {
    AgeIdentity stranger = AgeIdentities.parse("old.agekey", AgeTool.keygen().identityFile()).get(0);
    byte[] file = AgeTool.encrypt(DATA_KEY, true, bob.recipient());

    AgeFile.Decrypted decrypted = AgeFile.decrypt(file, List.of(stranger, aliceIdentity, bobIdentity));

    assertThat(decrypted.recipient().value()).isEqualTo(bob.recipient());
    assertThat(decrypted.toString()).doesNotContain(Arrays.toString(DATA_KEY)).contains("32 bytes");
  }

  @Test
  void opensAnEmptyPayloadAndAnArmorSurroundedByWhitespaceWithCarriageReturns() throws Exception {
    assertThat(AgeFile.decrypt(AgeTool.encrypt(new byte[0], false, alice.recipient()), List.of(aliceIdentity))
        .plaintext()).isEmpty();
    String armored = ascii(AgeTool.encrypt(DATA_KEY, true, alice.recipient()));
    byte[] indented = ("\n  \n" + armored.replace("\n", "\r\n") + "\n\n").getBytes(StandardCharsets.US_ASCII);

    assertThat(AgeFile.decrypt(indented, List.of(aliceIdentity)).plaintext()).isEqualTo(DATA_KEY);
  }

  @Test
  void noMatchingIdentityNamesTheRecipientsHeldAndCountsTheStanzas() {
    byte[] file = AgeTool.encrypt(DATA_KEY, true, alice.recipient(), bob.recipient());
    AgeIdentity stranger = identityOf(AgeTool.keygen());

    NoMatchingIdentity error = failure(file, List.of(stranger), NoMatchingIdentity.class);

    assertThat(error.held()).containsExactly(stranger.recipient());
    assertThat(error.x25519Stanzas()).isEqualTo(2);
    assertThat(error).hasMessage("none of the identities held (recipients " + stranger.recipient()
        + ") opens any of the file's 2 X25519 stanzas");
    assertThat(failure(file, List.of(), NoMatchingIdentity.class)).hasMessage("no age identity is held");
  }

  @Test
  void aChangedStanzaBodyLocksItsRecipientOutAndBreaksTheMacForTheOther() {
    byte[] file = AgeTool.encrypt(DATA_KEY, false, alice.recipient(), bob.recipient());
    byte[] changed = changeBase64(file, lineStart(file, 3));  // alice's stanza body: age writes stanzas in -r order

    assertThat(failure(changed, List.of(aliceIdentity), NoMatchingIdentity.class).x25519Stanzas()).isEqualTo(2);
    assertThat(failure(changed, List.of(bobIdentity), HeaderMacMismatch.class))
        .hasMessage("age header MAC does not match: the identity for " + bob.recipient()
            + " opened a stanza, but the header was changed after it was written");
  }

  @Test
  void aChangedMacIsAHeaderMacMismatch() {
    byte[] file = AgeTool.encrypt(DATA_KEY, false, alice.recipient());
    byte[] changed = changeBase64(file, lineStart(file, 4) + "--- ".length());

    failure(changed, List.of(aliceIdentity), HeaderMacMismatch.class);
  }

  @Test
  void aChangedCutOrExtendedPayloadIsMalformed() {
    byte[] file = AgeTool.encrypt(DATA_KEY, false, alice.recipient());
    int payload = lineStart(file, 5);
    byte[] flipped = file.clone();
    flipped[file.length - 1] ^= 1;

    assertThat(failure(flipped, List.of(aliceIdentity), MalformedPayload.class))
        .hasMessage("age payload: chunk 0 does not authenticate; the file was changed or cut short");
    assertThat(failure(Arrays.copyOf(file, file.length - 1), List.of(aliceIdentity), MalformedPayload.class))
        .hasMessage("age payload: chunk 0 does not authenticate; the file was changed or cut short");
    assertThat(failure(Arrays.copyOf(file, payload + 16), List.of(aliceIdentity), MalformedPayload.class))
        .hasMessage("age payload: it ends after its nonce, before any chunk; the file was cut short");
    assertThat(failure(Arrays.copyOf(file, payload + 5), List.of(aliceIdentity), MalformedPayload.class))
        .hasMessage("age payload: it ends inside its 16-byte nonce; the file was cut short");
    assertThat(failure(Arrays.copyOf(file, file.length + 3), List.of(aliceIdentity), MalformedPayload.class))
        .hasMessage("age payload: chunk 0 does not authenticate; the file was changed or cut short");
  }

  @Test
  void aFileLargerThan16KiBIsRefusedBeforeItIsRead() throws Exception {
    byte[] file = AgeTool.encrypt(new byte[AgeFile.MAX_BYTES], false, alice.recipient());

    assertThat(failure(file, List.of(aliceIdentity), MalformedFile.class).getMessage())
        .startsWith("age file of " + file.length + " bytes; gitfn reads at most 16384");
    assertThat(AgeFile.decrypt(AgeTool.encrypt(new byte[8 * 1024], true, alice.recipient()), List.of(aliceIdentity))
        .plaintext()).hasSize(8 * 1024);
  }

  @Test
  void moreThan64StanzasAreRefused() throws Exception {
    CraftedAgeFile crafted = new CraftedAgeFile();
    for (int i = 0; i < 64; i++) {
      crafted.x25519(bobIdentity);
    }
    assertThat(AgeFile.decrypt(crafted.write(DATA_KEY), List.of(bobIdentity)).plaintext()).isEqualTo(DATA_KEY);

    byte[] file = crafted.x25519(aliceIdentity).write(DATA_KEY);

    assertThat(failure(file, List.of(aliceIdentity), MalformedFile.class))
        .hasMessage("age header: more than 64 stanzas");
  }

  @Test
  void aPassphraseStanzaIsRefusedWithoutRunningScrypt() {
    byte[] file = new CraftedAgeFile()
        .stanza("scrypt", List.of(base64(CraftedAgeFile.random(16)), "62"), CraftedAgeFile.random(32))
        .write(DATA_KEY);

    long start = System.nanoTime();
    RefusedStanza error = failure(file, List.of(aliceIdentity), RefusedStanza.class);

    assertThat(System.nanoTime() - start).as("nanoseconds to refuse 2^62 scrypt").isLessThan(1_000_000_000L);
    assertThat(error.getMessage()).startsWith("age file encrypted with a passphrase (an scrypt stanza");
  }

  @Test
  void unknownStanzaTypesAreSkippedAndNamedOnlyWhenNothingMatched() throws Exception {
    byte[] file = new CraftedAgeFile()
        .stanza("ssh-ed25519", List.of("Xb2K1Q", base64(CraftedAgeFile.random(32))), CraftedAgeFile.random(32))
        .x25519(aliceIdentity)
        .stanza("piv-p256", List.of("x"), new byte[0])
        .write(DATA_KEY);

    assertThat(AgeFile.decrypt(file, List.of(aliceIdentity)).plaintext()).isEqualTo(DATA_KEY);

    NoMatchingIdentity error = failure(file, List.of(bobIdentity), NoMatchingIdentity.class);
    assertThat(error.otherStanzaTypes()).containsExactly("ssh-ed25519", "piv-p256");
    assertThat(error.getMessage()).endsWith("1 X25519 stanza; the file's stanzas of type ssh-ed25519, piv-p256 "
        + "are not read by gitfn");
  }

  @Test
  void aLowOrderShareIsMalformedNotAMismatch() {
    byte[] file = new CraftedAgeFile()
        .stanza("X25519", List.of(base64(new byte[32])), CraftedAgeFile.random(32))
        .x25519(aliceIdentity)
        .write(DATA_KEY);

    assertThat(failure(file, List.of(aliceIdentity), MalformedFile.class))
        .hasMessage("age stanza 1: its X25519 share is a low-order point");
  }

  @Test
  void aMalformedX25519StanzaIsRefused() {
    byte[] shortBody = new CraftedAgeFile()
        .stanza("X25519", List.of(base64(CraftedAgeFile.random(32))), CraftedAgeFile.random(31))
        .write(DATA_KEY);
    byte[] twoArguments = new CraftedAgeFile()
        .stanza("X25519", List.of(base64(CraftedAgeFile.random(32)), "x"), CraftedAgeFile.random(32))
        .write(DATA_KEY);

    assertThat(failure(shortBody, List.of(aliceIdentity), MalformedFile.class))
        .hasMessage("age stanza 1: an X25519 share is 32 bytes and its body 32");
    assertThat(failure(twoArguments, List.of(aliceIdentity), MalformedFile.class))
        .hasMessage("age stanza 1: an X25519 stanza has one argument, its share");
  }

  @Test
  void headersAndArmorAreReadStrictly() {
    String armored = ascii(AgeTool.encrypt(DATA_KEY, true, alice.recipient()));
    byte[] binary = AgeTool.encrypt(DATA_KEY, false, alice.recipient());
    String header = ascii(binary);

    assertThat(failure(bytes(armored.replace("-----END AGE ENCRYPTED FILE-----\n", "")), MalformedFile.class))
        .hasMessage("armored age file: no -----END AGE ENCRYPTED FILE----- line; the file was cut short");
    assertThat(failure(bytes(armored + "more"), MalformedFile.class))
        .hasMessage("armored age file: text after its -----END AGE ENCRYPTED FILE----- line");
    assertThat(failure(bytes(armored.replaceFirst("\n", "\nQUJD\n")), MalformedFile.class))
        .hasMessage("armored age file line 2: a short line before the last");
    assertThat(failure(bytes(header.replaceFirst("v1\n", "v2\n")), MalformedFile.class))
        .hasMessage("not an age file: it does not start with the line age-encryption.org/v1");
    assertThat(failure(bytes(header.replaceFirst("\n-> X25519 ", "\n->  X25519 ")), MalformedFile.class))
        .hasMessage("age header line 2: a stanza argument that is empty or not visible ASCII");
    assertThat(failure(Arrays.copyOf(binary, lineStart(binary, 4) + 10), MalformedFile.class))
        .hasMessage("age header: it ends before its --- line");
    assertThat(failure(new byte[] {'a'}, MalformedFile.class)).hasMessageStartingWith("not an age file");
  }

  @Test
  void noMessageHoldsKeyMaterialOrPlaintext() {
    byte[] file = AgeTool.encrypt(DATA_KEY, false, alice.recipient(), bob.recipient());
    byte[] macChanged = changeBase64(file, lineStart(file, 6) + "--- ".length());
    byte[] payloadChanged = file.clone();
    payloadChanged[file.length - 1] ^= 1;

    for (Exception error : List.of(
        failure(macChanged, List.of(aliceIdentity), HeaderMacMismatch.class),
        failure(payloadChanged, List.of(aliceIdentity, bobIdentity), MalformedPayload.class),
        failure(file, List.of(identityOf(AgeTool.keygen())), NoMatchingIdentity.class))) {
      assertThat(error.getMessage())
          .doesNotContain(secretKey(alice), secretKey(bob), base64(DATA_KEY), hex(DATA_KEY));
    }
  }

  private static <T extends AgeException> T failure(byte[] file, Class<T> type) {
    return failure(file, List.of(aliceIdentity), type);
  }

  private static <T extends AgeException> T failure(byte[] file, List<AgeIdentity> identities, Class<T> type) {
    T error = catchThrowableOfType(() -> AgeFile.decrypt(file, identities), type);
    assertThat(error).as("decrypting throws " + type.getSimpleName()).isNotNull();
    return error;
  }

  /** Where the 1-based {@code line} of a binary file's header starts. */
  private static int lineStart(byte[] file, int line) {
    int offset = 0;
    for (int seen = 1; seen < line; seen++) {
      while (file[offset] != '\n') {
        offset++;
      }
      offset++;
    }
    return offset;
  }

  /** {@code file} with the base64 character at {@code offset} replaced by another, so the encoding stays canonical. */
  private static byte[] changeBase64(byte[] file, int offset) {
    byte[] changed = file.clone();
    changed[offset] = (byte) (file[offset] == 'A' ? 'B' : 'A');
    return changed;
  }

  private static AgeIdentity identityOf(AgeTool.KeyPair keys) {
    try {
      return AgeIdentities.parse("identity.agekey", keys.identityFile()).get(0);
    } catch (AgeException e) {
      throw new AssertionError(e);
    }
  }

  private static String secretKey(AgeTool.KeyPair keys) {
    return keys.identityFile().lines().filter(line -> line.startsWith("AGE-SECRET-KEY-1")).findFirst().orElseThrow();
  }

  private static String base64(byte[] bytes) {
    return java.util.Base64.getEncoder().withoutPadding().encodeToString(bytes);
  }

  private static String hex(byte[] bytes) {
    return java.util.HexFormat.of().formatHex(bytes);
  }

  private static String ascii(byte[] bytes) {
    return new String(bytes, StandardCharsets.ISO_8859_1);
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.ISO_8859_1);
  }
}
