package io.gitfn.reconcile;

import io.gitfn.api.Labels;

import io.gitfn.api.function.Function;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Which FunctionRepositories and Functions this controller instance reconciles: a Kubernetes label selector such as
 * {@code gitfn.io/shard=a}, or {@code !gitfn.io/shard} for the instance that takes everything unsharded. The
 * informers list and watch with it, so objects of another shard never reach this instance's cache.
 *
 * <p>It is parsed here, not only by the API server, so that a typo fails at start with the flag's name instead of
 * as an informer that never syncs.
 *
 * @param expression the selector as given, which the informers send to the API server
 * @param requirements its comma-separated parts
 */
public record ShardSelector(String expression, List<Requirement> requirements) {

  /** One part of a selector: {@code key}, {@code !key}, {@code key=v}, {@code key!=v}, {@code key in (a,b)}. */
  public record Requirement(String key, Operator operator, Set<String> values) {

    public Requirement {
      Objects.requireNonNull(key, "key");
      Objects.requireNonNull(operator, "operator");
      values = Set.copyOf(values);
    }

    boolean matches(Map<String, String> labels) {
      String value = labels.get(key);
      switch (operator) {
        case EXISTS:
          return value != null;
        case DOES_NOT_EXIST:
          return value == null;
        case IN:
          return value != null && values.contains(value);
        case NOT_IN:
          return value == null || !values.contains(value);
        default:
          throw new IllegalStateException("unknown operator " + operator);
      }
    }
  }

  public enum Operator { EXISTS, DOES_NOT_EXIST, IN, NOT_IN }

  /** Everything: the selector of an instance that is not sharded. */
  public static final ShardSelector ALL = new ShardSelector("", List.of());

  // A qualified name with an optional DNS-subdomain prefix, as label keys are (k8s.io/apimachinery validation).
  private static final String NAME = "[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?";
  private static final Pattern KEY = Pattern.compile("([a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?/)?" + NAME);
  private static final Pattern VALUE = Pattern.compile("(" + NAME + ")?");
  private static final Pattern SET = Pattern.compile("^(\\S+)\\s+(in|notin)\\s*\\((.*)\\)$");
  private static final Pattern EQUALITY = Pattern.compile("^([^=!\\s]+)\\s*(==|=|!=)\\s*(.*)$");

  public ShardSelector {
    Objects.requireNonNull(expression, "expression");
    requirements = List.copyOf(requirements);
  }

  /**
   * Parses a selector; {@code flag} names where it came from in the error.
   *
   * @throws IllegalArgumentException naming the flag and the part that is wrong
   */
  public static ShardSelector parse(String flag, String expression) {
    if (expression == null || expression.isBlank()) {
      return ALL;
    }
    List<Requirement> requirements = new ArrayList<>();
    for (String part : splitOutsideParentheses(expression.strip())) {
      requirements.add(requirement(flag, expression, part.strip()));
    }
    return new ShardSelector(expression.strip(), requirements);
  }

  /** Whether an object with these labels belongs to this shard. */
  public boolean matches(Map<String, String> labels) {
    Map<String, String> present = labels == null ? Map.of() : labels;
    return requirements.stream().allMatch(r -> r.matches(present));
  }

  /**
   * The labels a FunctionRepository's Functions carry so that they land on the same instance as the repository:
   * the repository's own values of every key the selector names, and of {@link Labels#SHARD}. The repository matched the selector, so its
   * Functions do too; for {@code !key} the repository has no value and the Functions get none.
   */
  public Map<String, String> shardLabelsOf(Map<String, String> repositoryLabels) {
    Map<String, String> labels = new TreeMap<>();
    if (repositoryLabels == null) {
      return labels;
    }
    // The conventional key travels even when this instance selects on nothing or on other keys: an instance split
    // into shards by it then finds every Function labelled, and its first passes write nothing.
    String conventional = repositoryLabels.get(Labels.SHARD);
    if (conventional != null) {
      labels.put(Labels.SHARD, conventional);
    }
    for (Requirement r : requirements) {
      String value = repositoryLabels.get(r.key());
      if (value != null) {
        labels.put(r.key(), value);
      }
    }
    return labels;
  }

  /**
   * Puts a FunctionRepository's {@linkplain #shardLabelsOf shard labels} on the Functions it declares, so that they
   * are reconciled by the same instance as the repository; Git cannot move them elsewhere.
   */
  public List<Function> label(List<Function> functions, Map<String, String> repositoryLabels) {
    Map<String, String> shard = shardLabelsOf(repositoryLabels);
    if (shard.isEmpty()) {
      return functions;
    }
    for (Function fn : functions) {
      Map<String, String> labels = new TreeMap<>();
      if (fn.getMetadata().getLabels() != null) {
        labels.putAll(fn.getMetadata().getLabels());
      }
      labels.putAll(shard);
      fn.getMetadata().setLabels(labels);
    }
    return functions;
  }

  public boolean isAll() {
    return requirements.isEmpty();
  }

  /**
   * What the informers of a Function's children (Deployments, Services, HPAs, build Jobs) select: gitfn's managed-by
   * label, and for a sharded instance this selector. Children carry their Function's labels, shard label included,
   * so another shard's children never reach this instance's caches.
   */
  public String childSelector() {
    return isAll() ? Labels.MANAGED : Labels.MANAGED + "," + expression;
  }

  @Override
  public String toString() {
    return isAll() ? "(all)" : expression;
  }

  private static Requirement requirement(String flag, String expression, String part) {
    Matcher set = SET.matcher(part);
    if (set.matches()) {
      List<String> values = new ArrayList<>();
      for (String v : set.group(3).split(",", -1)) {
        values.add(value(flag, expression, v.strip()));
      }
      return new Requirement(key(flag, expression, set.group(1)),
          set.group(2).equals("in") ? Operator.IN : Operator.NOT_IN, Set.copyOf(values));
    }
    Matcher equality = EQUALITY.matcher(part);
    if (equality.matches()) {
      return new Requirement(key(flag, expression, equality.group(1)),
          equality.group(2).equals("!=") ? Operator.NOT_IN : Operator.IN,
          Set.of(value(flag, expression, equality.group(3))));
    }
    if (part.startsWith("!")) {
      return new Requirement(key(flag, expression, part.substring(1).strip()), Operator.DOES_NOT_EXIST, Set.of());
    }
    return new Requirement(key(flag, expression, part), Operator.EXISTS, Set.of());
  }

  private static String key(String flag, String expression, String key) {
    if (!KEY.matcher(key).matches() || key.length() > 316) {
      throw invalid(flag, expression, "`" + key + "` is not a label key (like gitfn.io/shard)");
    }
    return key;
  }

  private static String value(String flag, String expression, String value) {
    value = value.strip();
    if (!VALUE.matcher(value).matches()) {
      throw invalid(flag, expression, "`" + value + "` is not a label value (63 letters, digits, '-', '_' or '.')");
    }
    return value;
  }

  private static IllegalArgumentException invalid(String flag, String expression, String why) {
    return new IllegalArgumentException(flag + " `" + expression + "` is not a label selector: " + why
        + "; use key=value, key!=value, key, !key, key in (a,b) or key notin (a,b), separated by commas");
  }

  private static List<String> splitOutsideParentheses(String expression) {
    List<String> parts = new ArrayList<>();
    int depth = 0;
    int start = 0;
    for (int i = 0; i < expression.length(); i++) {
      char c = expression.charAt(i);
      if (c == '(') {
        depth++;
      } else if (c == ')') {
        depth--;
      } else if (c == ',' && depth == 0) {
        parts.add(expression.substring(start, i));
        start = i + 1;
      }
    }
    parts.add(expression.substring(start));
    return parts;
  }
}
