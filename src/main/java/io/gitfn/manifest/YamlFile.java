package io.gitfn.manifest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.StringReader;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;
import org.yaml.snakeyaml.nodes.Tag;

/**
 * Parses a YAML file into documents. SnakeYAML's composer keeps the position of every node, which binding
 * straight to Java objects would lose, so the line of each field is recorded while the tree is built.
 */
final class YamlFile {

  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  static final int MAX_CODE_POINTS = 2 * 1024 * 1024;
  static final int MAX_NESTING = 32;
  static final int MAX_DOCUMENTS = 500;

  private YamlFile() {}

  /** The documents of {@code text}, empty ones left out; a syntax error or a duplicate key goes to {@code errors}. */
  static List<YamlDocument> parse(String file, String text, List<ManifestError> errors) {
    LoaderOptions options = new LoaderOptions();
    // No alias may stand for a mapping or a list: a few hundred bytes of nested aliases expand to millions of
    // nodes (a "billion laughs"), and Function documents never need them. Aliases of scalars stay allowed.
    options.setMaxAliasesForCollections(0);
    options.setAllowRecursiveKeys(false);
    // Larger than any Function can be (its source goes into a ConfigMap of at most 1 MiB), small enough to read
    // safely; Function documents nest a few levels deep.
    options.setCodePointLimit(MAX_CODE_POINTS);
    options.setNestingDepthLimit(MAX_NESTING);
    List<YamlDocument> documents = new ArrayList<>();
    try {
      for (Node root : new Yaml(options).composeAll(new StringReader(text))) {
        if (root == null) {
          continue;
        }
        if (documents.size() == MAX_DOCUMENTS) {
          errors.add(new ManifestError(file, line(root.getStartMark()), null, "has more than " + MAX_DOCUMENTS
              + " YAML documents; split it into several files"));
          break;
        }
        Map<String, Integer> lines = new HashMap<>();
        List<ManifestError> duplicates = new ArrayList<>();
        JsonNode tree = convert(file, root, "", lines, duplicates);
        if (tree.isNull()) {
          continue;
        }
        errors.addAll(duplicates);
        documents.add(new YamlDocument(file, tree, new Lines(lines, line(root.getStartMark()))));
      }
    } catch (MarkedYAMLException e) {
      Mark mark = e.getProblemMark() != null ? e.getProblemMark() : e.getContextMark();
      errors.add(new ManifestError(file, line(mark), null, "is not valid YAML: " + firstLine(e.getProblem())
          + "; fix the syntax"));
    } catch (YAMLException e) {
      errors.add(new ManifestError(file, 0, null, "is not valid YAML: " + firstLine(e.getMessage())));
    }
    return documents;
  }

  private static JsonNode convert(
      String file, Node node, String path, Map<String, Integer> lines, List<ManifestError> errors) {
    if (node instanceof MappingNode mapping) {
      ObjectNode object = NODES.objectNode();
      for (NodeTuple tuple : mapping.getValue()) {
        Node keyNode = tuple.getKeyNode();
        String key = keyNode instanceof ScalarNode scalar ? scalar.getValue() : String.valueOf(keyNode);
        String child = path.isEmpty() ? key : path + "." + key;
        if (object.has(key)) {
          errors.add(new ManifestError(file, line(keyNode.getStartMark()), child,
              "is given twice in the same mapping; keep one"));
          continue;
        }
        lines.put(child, line(keyNode.getStartMark()));
        object.set(key, convert(file, tuple.getValueNode(), child, lines, errors));
      }
      return object;
    }
    if (node instanceof SequenceNode sequence) {
      ArrayNode array = NODES.arrayNode();
      int index = 0;
      for (Node item : sequence.getValue()) {
        String child = path + "[" + index++ + "]";
        lines.put(child, line(item.getStartMark()));
        array.add(convert(file, item, child, lines, errors));
      }
      return array;
    }
    if (node instanceof ScalarNode scalar) {
      return scalar(scalar);
    }
    return NODES.textNode(String.valueOf(node));
  }

  private static JsonNode scalar(ScalarNode scalar) {
    String value = scalar.getValue();
    Tag tag = scalar.getTag();
    try {
      if (Tag.NULL.equals(tag)) {
        return NODES.nullNode();
      }
      if (Tag.BOOL.equals(tag)) {
        return NODES.booleanNode(isTrue(value));
      }
      if (Tag.INT.equals(tag)) {
        return NODES.numberNode(new BigInteger(value.replace("_", "")));
      }
      if (Tag.FLOAT.equals(tag)) {
        return NODES.numberNode(new BigDecimal(value.replace("_", "")));
      }
    } catch (NumberFormatException e) {
      // Octal, hex, sexagesimal or .inf: keep the text, the field's type decides.
    }
    return NODES.textNode(value);
  }

  private static boolean isTrue(String value) {
    String v = value.toLowerCase(Locale.ROOT);
    return v.equals("true") || v.equals("yes") || v.equals("on") || v.equals("y");
  }

  private static int line(Mark mark) {
    return mark == null ? 0 : mark.getLine() + 1;
  }

  private static String firstLine(String text) {
    if (text == null) {
      return "unreadable";
    }
    int newline = text.indexOf('\n');
    return newline < 0 ? text : text.substring(0, newline);
  }
}
