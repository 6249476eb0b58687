package io.gitfn.secrets;

import static io.gitfn.secrets.SecretDecryptorTest.DEFAULTS;
import static io.gitfn.secrets.SecretDecryptorTest.FLUX;
import static io.gitfn.secrets.SecretDecryptorTest.PLAINTEXT;
import static io.gitfn.secrets.SecretDecryptorTest.document;
import static io.gitfn.secrets.SecretDecryptorTest.written;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * An encrypted Secret shown without a key: what the file has in clear, and a mask for every value of data and
 * stringData and for whatever else sops encrypted. Nothing is decrypted, so no plaintext can show.
 */
class MaskedSecretTest {

  @Test
  void fluxsLayoutShowsTheMetadataInClearAndMasksEveryValue() throws Exception {
    Secret masked = MaskedSecret.of(document(FLUX));

    assertThat(masked.getMetadata().getName()).isEqualTo("orders-db");
    assertThat(masked.getMetadata().getNamespace()).isEqualTo("shop");
    assertThat(masked.getMetadata().getLabels()).containsExactly(Map.entry("app", "orders"));
    assertThat(masked.getType()).isEqualTo("Opaque");
    assertThat(masked.getData()).containsExactly(Map.entry("token", "<encrypted>"));
    assertThat(masked.getStringData()).containsExactly(Map.entry("password", "<encrypted>"),
        Map.entry("config.yaml", "<encrypted>"));
  }

  @Test
  void sopsDefaultsEncryptTheNameTooWhichIsMaskedLikeTheValues() throws Exception {
    Secret masked = MaskedSecret.of(document(DEFAULTS));

    assertThat(masked.getApiVersion()).isEqualTo("v1");
    assertThat(masked.getKind()).isEqualTo("Secret");
    assertThat(masked.getMetadata().getName()).isEqualTo("<encrypted>");
    assertThat(masked.getMetadata().getAnnotations()).containsExactly(Map.entry("team", "<encrypted>"));
    assertThat(masked.getData()).containsExactly(Map.entry("token", "<encrypted>"));
  }

  @Test
  void aValueSopsLeftInClearIsNotShownEither() throws Exception {
    Secret masked = MaskedSecret.of(written("s.yaml", """
        apiVersion: v1
        kind: Secret
        metadata: {name: s}
        data:
          token_unencrypted: czNjcjN0
        sops: {version: 3.13.3}
        """));

    assertThat(masked.getData()).containsExactly(Map.entry("token_unencrypted", "<not shown>"));
  }

  @Test
  void nothingOfThePlaintextShowsInTheObjectAsRenderPrintsIt() throws Exception {
    for (String file : new String[] {DEFAULTS, FLUX}) {
      String yaml = new KubernetesSerialization().asYaml(MaskedSecret.of(document(file)));

      PLAINTEXT.forEach(value -> assertThat(yaml).as(file).doesNotContain(value));
    }
  }

  @Test
  void aFileThatIsNoSopsFileIsMalformed() {
    SecretException e = catchThrowableOfType(() -> MaskedSecret.of(written("s.yaml",
        "apiVersion: v1\nkind: Secret\nmetadata: {name: s}\n")), SecretException.class);

    assertThat(e.reason()).isEqualTo(SecretException.Reason.MALFORMED);
    assertThat(e).hasMessageStartingWith("s.yaml: has no top-level sops block");
  }
}
