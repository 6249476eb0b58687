package io.gitfn.secrets.age;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.gitfn.secrets.age.AgeException.MalformedIdentity;
import java.util.List;
import org.junit.jupiter.api.Test;

class AgeIdentitiesTest {

  @Test
  void derivesTheRecipientAgeKeygenDerives() throws Exception {
    AgeTool.KeyPair keys = AgeTool.keygen();

    List<AgeIdentity> identities = AgeIdentities.parse("identity.agekey", keys.identityFile());

    assertThat(identities).singleElement().extracting(identity -> identity.recipient().value())
        .isEqualTo(AgeTool.recipientOf(keys.identityFile()))
        .isEqualTo(keys.recipient());
  }

  @Test
  void readsSeveralIdentitiesBetweenCommentsBlankLinesAndCarriageReturns() throws Exception {
    AgeTool.KeyPair first = AgeTool.keygen();
    AgeTool.KeyPair second = AgeTool.keygen();
    String entry = "# rotated in November\n\n" + first.identityFile().replace("\n", "\r\n") + "\n  \n"
        + second.identityFile();

    List<AgeIdentity> identities = AgeIdentities.parse("identity.agekey", entry);

    assertThat(identities).extracting(identity -> identity.recipient().value())
        .containsExactly(first.recipient(), second.recipient());
  }

  @Test
  void aChangedCharacterNamesTheEntryAndLineAndNeverTheKey() {
    String key = secretKeyLine(AgeTool.keygen());
    String changed = key.substring(0, 30) + (key.charAt(30) == 'Q' ? 'P' : 'Q') + key.substring(31);

    MalformedIdentity error = catchThrowableOfType(
        () -> AgeIdentities.parse("team.agekey", "# a comment\n\n" + changed + "\n"), MalformedIdentity.class);

    assertThat(error.entry()).isEqualTo("team.agekey");
    assertThat(error.line()).isEqualTo(3);
    assertThat(error).hasMessage("entry team.agekey line 3: not an age identity: its checksum does not match: "
        + "a character was changed, added or lost");
    assertThat(error.getMessage()).doesNotContain(changed.substring(16, 40), key.substring(16, 40));
  }

  @Test
  void garbageIsNamedByLineWithoutBeingRepeated() {
    MalformedIdentity error = catchThrowableOfType(
        () -> AgeIdentities.parse("identity.agekey", "hunter2-is-my-password\n"), MalformedIdentity.class);

    assertThat(error).hasMessage("entry identity.agekey line 1: not an age identity: it does not start with "
        + "AGE-SECRET-KEY-1");
  }

  @Test
  void aRecipientInPlaceOfAnIdentitySaysWhichLineTheEntryNeeds() {
    AgeTool.KeyPair keys = AgeTool.keygen();

    MalformedIdentity error = catchThrowableOfType(
        () -> AgeIdentities.parse("identity.agekey", keys.recipient() + "\n"), MalformedIdentity.class);

    assertThat(error.getMessage()).startsWith("entry identity.agekey line 1: an age1 recipient, a public key;")
        .contains("AGE-SECRET-KEY-1");
  }

  @Test
  void anEntryWithoutIdentitiesIsRefused() {
    MalformedIdentity error = catchThrowableOfType(
        () -> AgeIdentities.parse("identity.agekey", "# nothing here\n\n"), MalformedIdentity.class);

    assertThat(error.line()).isZero();
    assertThat(error).hasMessage("entry identity.agekey: no AGE-SECRET-KEY-1 line; age-keygen writes one");
  }

  @Test
  void anIdentityShowsOnlyItsRecipient() throws Exception {
    AgeTool.KeyPair keys = AgeTool.keygen();

    AgeIdentity identity = AgeIdentities.parse("identity.agekey", keys.identityFile()).get(0);

    assertThat(identity).hasToString("AgeIdentity[" + keys.recipient() + "]");
  }

  @Test
  void aRecipientMustBeAge1AndA32ByteKey() {
    AgeTool.KeyPair keys = AgeTool.keygen();

    assertThat(new AgeRecipient(keys.recipient())).hasToString(keys.recipient());
    assertThat(catchThrowableOfType(() -> new AgeRecipient(keys.recipient() + "q"), IllegalArgumentException.class))
        .hasMessageContaining("checksum");
    assertThat(catchThrowableOfType(() -> new AgeRecipient(Bech32.encode("age", new byte[31])),
        IllegalArgumentException.class)).hasMessageContaining("32-byte key");
  }

  private static String secretKeyLine(AgeTool.KeyPair keys) {
    return keys.identityFile().lines().filter(line -> line.startsWith("AGE-SECRET-KEY-1")).findFirst().orElseThrow();
  }
}
