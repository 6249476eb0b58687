package io.gitfn.secrets.sops;

import java.io.StringReader;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Iterator;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.events.AliasEvent;
import org.yaml.snakeyaml.events.CollectionEndEvent;
import org.yaml.snakeyaml.events.CollectionStartEvent;
import org.yaml.snakeyaml.events.DocumentStartEvent;
import org.yaml.snakeyaml.events.Event;
import org.yaml.snakeyaml.events.MappingStartEvent;
import org.yaml.snakeyaml.events.NodeEvent;
import org.yaml.snakeyaml.events.ScalarEvent;
import org.yaml.snakeyaml.events.SequenceStartEvent;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;

/**
 * Reads a SOPS file's bytes into one YAML mapping, within {@link SopsLimits}. The size is checked on the bytes; the
 * depth, the number of values and the shape (one document, scalar keys, no aliases) on SnakeYAML's event stream,
 * which holds one event at a time; only a file that passes is composed into nodes. Comments are not read: sops
 * leaves them out of the MAC, and a Kubernetes object has none.
 */
final class BoundedYaml {

  private BoundedYaml() {}

  static MappingNode read(byte[] content, String file, SopsLimits limits) throws SopsException {
    if (content.length > limits.maxBytes()) {
      throw tooLarge(file, "has " + content.length + " bytes, more than the " + limits.maxBytes() + " allowed");
    }
    String text = utf8(content, file);
    LoaderOptions options = new LoaderOptions();
    options.setCodePointLimit(limits.maxBytes());
    options.setNestingDepthLimit(limits.maxDepth() + 1);
    options.setMaxAliasesForCollections(0);
    options.setAllowDuplicateKeys(false);
    try {
      scan(new Yaml(options).parse(new StringReader(text)), file, limits);
      Iterator<Node> documents = new Yaml(options).composeAll(new StringReader(text)).iterator();
      Node root = documents.hasNext() ? documents.next() : null;
      if (!(root instanceof MappingNode mapping)) {
        throw new SopsException(SopsException.Reason.NOT_YAML, file, null,
            "is not a YAML mapping; a SOPS-encrypted Secret is one mapping with a sops block");
      }
      return mapping;
    } catch (MarkedYAMLException e) {
      Mark mark = e.getProblemMark() != null ? e.getProblemMark() : e.getContextMark();
      throw new SopsException(SopsException.Reason.NOT_YAML, file, null, "is not valid YAML"
          + (mark == null ? "" : " at line " + (mark.getLine() + 1)) + ": " + firstLine(e.getProblem()));
    } catch (YAMLException e) {
      throw new SopsException(SopsException.Reason.NOT_YAML, file, null, "is not valid YAML: "
          + firstLine(e.getMessage()));
    }
  }

  /**
   * Walks the events once, counting values and depth, so that a file with a million values fails after the
   * first {@code maxValues}, before SnakeYAML builds a node for each.
   */
  private static void scan(Iterable<Event> events, String file, SopsLimits limits) throws SopsException {
    Deque<Open> open = new ArrayDeque<>();
    int values = 0;
    int documents = 0;
    for (Event event : events) {
      if (event instanceof DocumentStartEvent && ++documents > 1) {
        throw new SopsException(SopsException.Reason.NOT_YAML, file, null,
            "has more than one YAML document; put one Secret in each SOPS file");
      }
      if (event instanceof AliasEvent alias) {
        throw new SopsException(SopsException.Reason.UNSUPPORTED, file, null, "uses the YAML alias *"
            + alias.getAnchor() + " at line " + line(alias) + "; sops does not write aliases");
      }
      if (!(event instanceof NodeEvent node)) {
        if (event instanceof CollectionEndEvent) {
          open.pop();
        }
        continue;
      }
      String tag = node instanceof ScalarEvent scalar ? scalar.getTag()
          : node instanceof CollectionStartEvent collection ? collection.getTag() : null;
      if (tag != null && !tag.equals("!")) {
        throw new SopsException(SopsException.Reason.UNSUPPORTED, file, null, "has the YAML tag " + tag
            + " at line " + line(node) + "; sops writes no tags");
      }
      boolean isKey = open.peek() == Open.MAPPING_KEY;
      if (open.peek() == Open.MAPPING_KEY || open.peek() == Open.MAPPING_VALUE) {
        open.pop();
        open.push(isKey ? Open.MAPPING_VALUE : Open.MAPPING_KEY);
      }
      if (isKey && !(node instanceof ScalarEvent)) {
        throw new SopsException(SopsException.Reason.UNSUPPORTED, file, null,
            "has a mapping key that is not text at line " + line(node));
      }
      if (node instanceof ScalarEvent && !isKey && ++values > limits.maxValues()) {
        throw tooLarge(file, "has more than " + limits.maxValues() + " values");
      }
      if (node instanceof MappingStartEvent || node instanceof SequenceStartEvent) {
        if (open.size() == limits.maxDepth()) {
          throw tooLarge(file, "nests deeper than " + limits.maxDepth() + " levels at line " + line(node));
        }
        open.push(node instanceof MappingStartEvent ? Open.MAPPING_KEY : Open.SEQUENCE);
      }
    }
  }

  /** What the next node in an open collection is. */
  private enum Open { SEQUENCE, MAPPING_KEY, MAPPING_VALUE }

  private static String utf8(byte[] content, String file) throws SopsException {
    try {
      return StandardCharsets.UTF_8.newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(content))
          .toString();
    } catch (CharacterCodingException e) {
      throw new SopsException(SopsException.Reason.NOT_YAML, file, null, "is not UTF-8 text");
    }
  }

  private static SopsException tooLarge(String file, String problem) {
    return new SopsException(SopsException.Reason.TOO_LARGE, file, null, problem);
  }

  private static int line(Event event) {
    return event.getStartMark() == null ? 0 : event.getStartMark().getLine() + 1;
  }

  private static String firstLine(String text) {
    if (text == null) {
      return "unreadable";
    }
    int newline = text.indexOf('\n');
    return newline < 0 ? text : text.substring(0, newline);
  }
}
