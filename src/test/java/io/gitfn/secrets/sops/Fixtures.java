package io.gitfn.secrets.sops;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The files the real sops wrote (src/test/resources/io/gitfn/secrets/sops, README.md there), and the edits the tests
 * make to them; public for the tests of what is built on the SOPS reader ({@code io.gitfn.secrets}, render).
 */
public final class Fixtures {

  private static final Pattern PUBLIC_KEY = Pattern.compile("# public key: (age1[0-9a-z]+)");

  private Fixtures() {}

  public static String text(String name) {
    try (InputStream in = Fixtures.class.getResourceAsStream(name)) {
      if (in == null) {
        throw new IllegalStateException("no fixture " + name + " beside " + Fixtures.class.getName());
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public static byte[] bytes(String name) {
    return text(name).getBytes(StandardCharsets.UTF_8);
  }

  /** The recipient of a test identity, from the comment age-keygen writes into it. */
  public static String recipient(String identity) {
    Matcher m = PUBLIC_KEY.matcher(text(identity));
    if (!m.find()) {
      throw new IllegalStateException(identity + " has no `# public key:` line");
    }
    return m.group(1);
  }

  /**
   * A stand-in for gitfn's age code holding the identities of {@code held} recipients: it answers with the data key
   * that {@code age -d} gave with each of them when {@code keyFile} was made ({@code <name>.data-key.hex}), for the
   * first held recipient in the file's order.
   */
  static DataKeySource holding(String keyFile, String... held) {
    byte[] key = HexFormat.of().parseHex(text(keyFile).strip());
    Set<String> identities = Set.of(held);
    return recipients -> recipients.stream()
        .map(AgeRecipient::recipient)
        .filter(identities::contains)
        .findFirst()
        .map(recipient -> new DataKey(key, recipient))
        .orElseThrow(() -> new DataKeySource.NoMatchingIdentity("no identity opens any of " + recipients.stream()
            .map(AgeRecipient::recipient).toList()));
  }

  /** {@code yaml} with one byte of {@code key}'s ciphertext flipped: still well-formed, no longer authentic. */
  public static String flipDataByte(String yaml, String key) {
    Matcher m = Pattern.compile("(\\s" + Pattern.quote(key) + ": ENC\\[AES256_GCM,data:)([^,]+)").matcher(yaml);
    if (!m.find()) {
      throw new IllegalArgumentException("no encrypted " + key + " in the file");
    }
    byte[] data = Base64.getDecoder().decode(m.group(2));
    data[0] ^= 1;
    return yaml.substring(0, m.start(2)) + Base64.getEncoder().encodeToString(data) + yaml.substring(m.end(2));
  }

  /** The ENC[...] value of the first {@code key} in {@code yaml}. */
  public static String encValue(String yaml, String key) {
    Matcher m = Pattern.compile("\\s" + Pattern.quote(key) + ": (ENC\\[[^]]+])").matcher(yaml);
    if (!m.find()) {
      throw new IllegalArgumentException("no encrypted " + key + " in the file");
    }
    return m.group(1);
  }

  /** Every text value of a decrypted fixture's data and stringData: what no message may contain. */
  static List<String> secretValues(JsonNode document) {
    List<String> values = new ArrayList<>();
    for (String field : List.of("data", "stringData")) {
      document.path(field).forEach(value -> values.add(value.asText()));
    }
    return values;
  }
}
