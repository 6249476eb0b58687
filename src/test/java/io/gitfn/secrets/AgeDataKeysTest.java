package io.gitfn.secrets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.gitfn.secrets.age.AgeIdentities;
import io.gitfn.secrets.age.AgeIdentity;
import io.gitfn.secrets.sops.DecryptedDocument;
import io.gitfn.secrets.sops.SopsException;
import io.gitfn.secrets.sops.SopsFile;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The SOPS reader and the age reader together, on the files the real sops wrote
 * ({@code src/test/resources/io/gitfn/secrets/sops}): what the controller will do with a repository's identities.
 */
class AgeDataKeysTest {

  private static final String FIXTURES = "/io/gitfn/secrets/sops/";

  @Test
  void eitherRecipientsIdentityOpensTheFileAsSopsItselfDecryptsIt() throws Exception {
    for (String identity : List.of("identity-1.agekey", "identity-2.agekey")) {
      DecryptedDocument secret = SopsFile.decrypt("secret.sops.yaml", bytes("secret.sops.yaml"),
          new AgeDataKeys(identities(identity)));

      assertThat(secret.document()).as(identity)
          .isEqualTo(new ObjectMapper().readTree(bytes("secret.decrypted.json")));
      assertThat(secret.recipient()).as("the recipient whose identity opened it")
          .isEqualTo(AgeIdentities.parse(identity, text(identity)).get(0).recipient().value());
    }
  }

  @Test
  void anIdentityOfNoRecipientIsRefusedNamingTheFileAndItsRecipients() throws Exception {
    List<AgeIdentity> stranger = AgeIdentities.parse("stranger.agekey",
        "AGE-SECRET-KEY-1GFPYYSJZGFPYYSJZGFPYYSJZGFPYYSJZGFPYYSJZGFPYYSJZGFPQ4EGAEX\n");

    assertThatThrownBy(() -> SopsFile.decrypt("secret.sops.yaml", bytes("secret.sops.yaml"),
        new AgeDataKeys(stranger)))
        .isInstanceOf(SopsException.class)
        .hasMessageContaining("secret.sops.yaml")
        .hasMessageContaining(AgeIdentities.parse("identity-1.agekey", text("identity-1.agekey")).get(0)
            .recipient().value());
  }

  private static List<AgeIdentity> identities(String name) throws Exception {
    return AgeIdentities.parse(name, text(name));
  }

  private static String text(String name) throws IOException {
    return new String(bytes(name), StandardCharsets.UTF_8);
  }

  private static byte[] bytes(String name) throws IOException {
    try (InputStream in = AgeDataKeysTest.class.getResourceAsStream(FIXTURES + name)) {
      if (in == null) {
        throw new IOException("no fixture " + FIXTURES + name);
      }
      return in.readAllBytes();
    }
  }
}
