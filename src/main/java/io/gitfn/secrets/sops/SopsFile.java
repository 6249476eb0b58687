package io.gitfn.secrets.sops;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Arrays;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;

/**
 * Decrypts a SOPS-encrypted YAML file in memory, as sops' {@code decrypt.DataWithFormat} does, and refuses it whole
 * unless its MAC matches: bounded read, metadata, data key through the {@link DataKeySource}, every value, then the
 * MAC, and only then the document.
 */
public final class SopsFile {

  /** What {@link #outline} shows in place of an encrypted value. */
  public static final String ENCRYPTED = "<encrypted>";

  private SopsFile() {}

  /** {@link #decrypt(String, byte[], DataKeySource, SopsLimits)} within {@link SopsLimits#DEFAULT}. */
  public static DecryptedDocument decrypt(String file, byte[] content, DataKeySource keys) throws SopsException {
    return decrypt(file, content, keys, SopsLimits.DEFAULT);
  }

  /**
   * @param file the file's path in the repository, for messages
   * @throws SopsException naming the file, the path at fault and the {@link SopsException.Reason}; never a value
   */
  public static DecryptedDocument decrypt(String file, byte[] content, DataKeySource keys, SopsLimits limits)
      throws SopsException {
    MappingNode root = BoundedYaml.read(content, file, limits);
    SopsMetadata metadata = SopsMetadata.read(sopsBlock(root, file), file);
    DataKey dataKey;
    try {
      dataKey = keys.unwrap(metadata.age());
    } catch (DataKeySource.NoMatchingIdentity e) {
      throw new SopsException(SopsException.Reason.NO_MATCHING_IDENTITY, file, "sops.age", e.getMessage());
    }
    byte[] key = dataKey.key();
    TreeDecryption.Result result;
    String stored;
    try {
      result = TreeDecryption.decrypt(file, root, metadata, key);
      stored = TreeDecryption.storedMac(file, metadata, key);
    } finally {
      Arrays.fill(key, (byte) 0);
    }
    if (!MessageDigest.isEqual(stored.getBytes(StandardCharsets.UTF_8),
        result.computedMac().getBytes(StandardCharsets.UTF_8))) {
      throw new SopsException(SopsException.Reason.MAC_MISMATCH, file, "sops.mac", "does not match the file's"
          + " values: a value was replaced by another valid one (an older version's), added, removed or"
          + " reordered, or an unencrypted value was changed; the file is refused whole");
    }
    return new DecryptedDocument(file, result.document(), dataKey.recipient(), metadata.version());
  }

  /**
   * The document without its {@code sops} block and with {@link #ENCRYPTED} in place of each encrypted value: what
   * can be shown of the file without a key. Read within {@link SopsLimits#DEFAULT}; nothing is decrypted, and nothing
   * is authenticated either, so a value in clear is only what the file claims.
   *
   * @throws SopsException when the file is too large, not YAML, or has no {@code sops} block
   */
  public static ObjectNode outline(String file, byte[] content) throws SopsException {
    MappingNode root = BoundedYaml.read(content, file, SopsLimits.DEFAULT);
    sopsBlock(root, file);
    return Outline.of(file, root);
  }

  private static Node sopsBlock(MappingNode root, String file) throws SopsException {
    for (NodeTuple tuple : root.getValue()) {
      if (tuple.getKeyNode() instanceof ScalarNode key && key.getValue().equals("sops")) {
        return tuple.getValueNode();
      }
    }
    throw new SopsException(SopsException.Reason.NOT_SOPS, file, null,
        "has no top-level sops block: it is not encrypted with sops; encrypt it with `sops -e`");
  }
}
