package io.gitfn.secrets.sops;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;

/**
 * A SOPS document as far as it can be read without its data key: the values sops left in clear, typed as
 * {@link PlainScalar} types them, and {@link SopsFile#ENCRYPTED} in place of each encrypted one. Nothing is decrypted
 * or authenticated, so an outline says what the file claims, not what it holds.
 */
final class Outline {

  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private final String file;

  private Outline(String file) {
    this.file = file;
  }

  static ObjectNode of(String file, MappingNode root) throws SopsException {
    return new Outline(file).mapping(root, "");
  }

  private ObjectNode mapping(MappingNode mapping, String shown) throws SopsException {
    ObjectNode object = NODES.objectNode();
    for (NodeTuple tuple : mapping.getValue()) {
      String key = ((ScalarNode) tuple.getKeyNode()).getValue();
      if (shown.isEmpty() && key.equals("sops")) {
        continue;
      }
      String child = shown.isEmpty() ? key : shown + "." + key;
      if (object.has(key)) {
        throw new SopsException(SopsException.Reason.NOT_YAML, file, child, "is given twice in the same mapping");
      }
      object.set(key, node(tuple.getValueNode(), child));
    }
    return object;
  }

  private JsonNode node(Node node, String shown) throws SopsException {
    if (node instanceof MappingNode mapping) {
      return mapping(mapping, shown);
    }
    if (node instanceof SequenceNode sequence) {
      ArrayNode array = NODES.arrayNode();
      for (int i = 0; i < sequence.getValue().size(); i++) {
        array.add(node(sequence.getValue().get(i), shown + "[" + i + "]"));
      }
      return array;
    }
    ScalarNode scalar = (ScalarNode) node;
    return EncryptedValue.looksEncrypted(scalar.getValue())
        ? NODES.textNode(SopsFile.ENCRYPTED) : PlainScalar.read(scalar, file, shown).value();
  }
}
