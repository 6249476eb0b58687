package io.gitfn.trigger.webhook;

import com.fasterxml.jackson.core.filter.TokenFilter;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The fields of a payload a parser reads, as a Jackson {@link TokenFilter}. Only they reach the parsed tree, so a
 * delivery costs the memory of a few fields whatever else its body holds: a megabyte of tiny JSON objects is
 * skipped token by token and never becomes a tree. A field that should hold text keeps scalars only, and a list
 * keeps its first {@link #MAX_ITEMS} elements.
 *
 * <p>Paths are dotted names; {@code []} marks a list whose elements are objects, as in
 * {@code push.changes[].new.name}, and {@code [n]} such a list of which the first {@code n} elements are read
 * instead of {@link #MAX_ITEMS}, as in {@code pull_request.labels[100].name}.
 */
final class PayloadFields extends TokenFilter {

  /** The elements of a list that are read; a push that moves more refs than this is cut to the first ones. */
  static final int MAX_ITEMS = 20;

  private enum Shape { OBJECT, LIST, TEXT }

  private static final Pattern LIST = Pattern.compile("(.+)\\[(\\d*)]");

  private final Shape shape;
  private final int maxItems;
  private final Map<String, PayloadFields> fields = new LinkedHashMap<>();
  private PayloadFields element;

  private PayloadFields(Shape shape) {
    this(shape, MAX_ITEMS);
  }

  private PayloadFields(Shape shape, int maxItems) {
    this.shape = shape;
    this.maxItems = maxItems;
  }

  static PayloadFields of(String... paths) {
    PayloadFields root = new PayloadFields(Shape.OBJECT);
    for (String path : paths) {
      root.add(path.split("\\."), 0);
    }
    return root;
  }

  private void add(String[] parts, int at) {
    String part = parts[at];
    boolean last = at == parts.length - 1;
    Matcher listed = LIST.matcher(part);
    if (listed.matches()) {
      int max = listed.group(2).isEmpty() ? MAX_ITEMS : Integer.parseInt(listed.group(2));
      PayloadFields list = fields.computeIfAbsent(listed.group(1), name -> new PayloadFields(Shape.LIST, max));
      if (list.element == null) {
        list.element = new PayloadFields(Shape.OBJECT);
      }
      if (!last) {
        list.element.add(parts, at + 1);
      }
      return;
    }
    PayloadFields field = fields.computeIfAbsent(part, name -> new PayloadFields(last ? Shape.TEXT : Shape.OBJECT));
    if (!last) {
      field.add(parts, at + 1);
    }
  }

  @Override
  public TokenFilter filterStartObject() {
    return shape == Shape.OBJECT ? this : null;
  }

  @Override
  public TokenFilter filterStartArray() {
    return shape == Shape.LIST ? this : null;
  }

  @Override
  public TokenFilter includeProperty(String name) {
    return shape == Shape.OBJECT ? fields.get(name) : null;
  }

  @Override
  public TokenFilter includeElement(int index) {
    return shape == Shape.LIST && index < maxItems ? element : null;
  }

  @Override
  protected boolean _includeScalar() {
    return shape == Shape.TEXT;
  }
}
