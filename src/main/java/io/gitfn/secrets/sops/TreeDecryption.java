package io.gitfn.secrets.sops;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;

/**
 * Walks a SOPS document in its order, as {@code Tree.Decrypt} in sops' {@code sops.go} does: each value the rule
 * says is encrypted is opened with its key path ({@code data:password:}; sequence items add nothing to it) as the
 * authenticated data, and every value (or only the encrypted ones, with {@code mac_only_encrypted}) is added to a
 * SHA-512, whose upper-case hex is the MAC the file must carry. The top-level {@code sops} block is left out.
 */
final class TreeDecryption {

  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  /** sops' {@code MACOnlyEncryptedInitialization}: SHA-256 of "sops", so the two kinds of MAC never coincide. */
  private static final byte[] MAC_ONLY_ENCRYPTED_INIT =
      HexFormat.of().parseHex("8a3fd2ad54ce66527b1034f3d147be0b0b975b3bf44f72c6fdadec8176f27d69");

  private final String file;
  private final SopsMetadata metadata;
  private final ValueCipher cipher;
  private final MessageDigest mac;

  private TreeDecryption(String file, SopsMetadata metadata, ValueCipher cipher) {
    this.file = file;
    this.metadata = metadata;
    this.cipher = cipher;
    try {
      this.mac = MessageDigest.getInstance("SHA-512");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("this JVM has no SHA-512", e);
    }
    if (metadata.macOnlyEncrypted()) {
      mac.update(MAC_ONLY_ENCRYPTED_INIT);
    }
  }

  /** The decrypted document and the MAC its values give, to be compared with the file's before either is used. */
  record Result(ObjectNode document, String computedMac) {
    @Override
    public String toString() {
      return "Result[(hidden)]";
    }
  }

  static Result decrypt(String file, MappingNode root, SopsMetadata metadata, byte[] dataKey)
      throws SopsException {
    TreeDecryption walk = new TreeDecryption(file, metadata, new ValueCipher(dataKey));
    ObjectNode document = walk.mapping(root, new ArrayList<>(), "", true);
    return new Result(document, HexFormat.of().withUpperCase().formatHex(walk.mac.digest()));
  }

  private JsonNode node(Node node, List<String> keys, String shown) throws SopsException {
    if (node instanceof MappingNode mapping) {
      return mapping(mapping, keys, shown, false);
    }
    if (node instanceof SequenceNode sequence) {
      ArrayNode array = NODES.arrayNode();
      List<Node> items = sequence.getValue();
      for (int i = 0; i < items.size(); i++) {
        array.add(node(items.get(i), keys, shown + "[" + i + "]"));
      }
      return array;
    }
    return leaf((ScalarNode) node, keys, shown);
  }

  private ObjectNode mapping(MappingNode mapping, List<String> keys, String shown, boolean root)
      throws SopsException {
    ObjectNode object = NODES.objectNode();
    for (NodeTuple tuple : mapping.getValue()) {
      String key = ((ScalarNode) tuple.getKeyNode()).getValue();
      String child = shown.isEmpty() ? key : shown + "." + key;
      if (root && key.equals("sops")) {
        continue;
      }
      if (object.has(key)) {
        throw new SopsException(SopsException.Reason.NOT_YAML, file, child, "is given twice in the same mapping");
      }
      keys.add(key);
      object.set(key, node(tuple.getValueNode(), keys, child));
      keys.remove(keys.size() - 1);
    }
    return object;
  }

  private JsonNode leaf(ScalarNode scalar, List<String> keys, String shown) throws SopsException {
    boolean encrypted = encrypts(keys, shown);
    Leaf leaf = encrypted ? open(scalar, keys, shown) : PlainScalar.read(scalar, file, shown);
    if (leaf.macBytes() != null && (encrypted || !metadata.macOnlyEncrypted())) {
      mac.update(leaf.macBytes());
    }
    return leaf.value();
  }

  private Leaf open(ScalarNode scalar, List<String> keys, String shown) throws SopsException {
    String text = scalar.getValue();
    boolean plain = scalar.getScalarStyle() == DumperOptions.ScalarStyle.PLAIN;
    if (plain && PlainScalar.isNull(text)) {
      // A null is not walked by sops: not encrypted, not in the MAC.
      return new Leaf(NODES.nullNode(), null);
    }
    if (text.isEmpty()) {
      // sops leaves an empty text as it is: encrypting it would reveal its length anyway.
      return new Leaf(NODES.textNode(""), new byte[0]);
    }
    EncryptedValue value = EncryptedValue.parse(text, file, shown);
    byte[] plaintext = cipher.open(value, String.join(":", keys) + ":");
    if (plaintext == null) {
      throw new SopsException(SopsException.Reason.VALUE_TAMPERED, file, shown, "does not decrypt: its"
          + " authentication tag does not verify, so the value, its IV or its place in the file was changed"
          + " (or the data key is not this file's)");
    }
    return DecryptedScalar.read(value.type(), plaintext, file, shown);
  }

  private boolean encrypts(List<String> keys, String shown) throws SopsException {
    try {
      return metadata.rule().encrypts(keys);
    } catch (IllegalArgumentException e) {
      throw new SopsException(SopsException.Reason.UNSUPPORTED, file, shown, "cannot be checked against the file's"
          + " encryption rule: its regular expression takes too long to match; simplify it");
    }
  }

  /** The stored MAC, opened with the data key and the {@code lastmodified} timestamp. */
  static String storedMac(String file, SopsMetadata metadata, byte[] dataKey) throws SopsException {
    EncryptedValue value = EncryptedValue.parse(metadata.mac(), file, "sops.mac");
    byte[] plaintext = new ValueCipher(dataKey).open(value, metadata.macAdditionalData());
    if (plaintext == null) {
      throw new SopsException(SopsException.Reason.MAC_MISMATCH, file, "sops.mac", "does not decrypt: the MAC or"
          + " sops.lastmodified was changed; the file is refused whole");
    }
    return new String(plaintext, StandardCharsets.UTF_8);
  }
}
