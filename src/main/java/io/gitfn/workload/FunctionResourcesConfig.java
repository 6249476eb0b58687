package io.gitfn.workload;

import io.fabric8.kubernetes.api.model.Quantity;
import io.gitfn.workload.ResourcePresets.Preset;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.YAMLException;

/**
 * An operator's Function profiles, in the shape of Kyma's own {@code resourcesConfiguration} (the Serverless module's
 * {@code values.yaml}, {@code containers.manager.configuration.data.resourcesConfiguration}), so that a Kyma
 * operator's file works unchanged:
 *
 * <pre>
 * function:
 *   resources:
 *     minRequestCpu: "10m"
 *     minRequestMemory: "16Mi"
 *     defaultPreset: "L"
 *     presets:
 *       L: {requestCpu: "400m", requestMemory: "512Mi", limitCpu: "800m", limitMemory: "1024Mi"}
 * </pre>
 *
 * <p>The presets named replace Kyma's figures for those names; the others keep Kyma's. Names stay Kyma's
 * ({@code XS} to {@code XL}), as Functions name them. gitfn's smallest allowed request is fixed at Kyma's
 * ({@code 10m}, {@code 16Mi}), so {@code minRequestCpu} and {@code minRequestMemory} are accepted only with those values.
 * Any other key is an error that names it: a setting that is silently ignored is worse than one refused.
 *
 * @param presets the profiles with the operator's figures
 * @param defaultPreset the profile for a Function that names none, when the file says
 */
public record FunctionResourcesConfig(ResourcePresets presets, Optional<String> defaultPreset) {

  /** A file this size is already far more than five presets need; anything larger is refused unread. */
  public static final int MAX_BYTES = 64 * 1024;

  private static final Map<String, String> MINIMUMS = Map.of("minRequestCpu", "10m", "minRequestMemory", "16Mi");
  private static final List<String> FIGURES = List.of("requestCpu", "requestMemory", "limitCpu", "limitMemory");

  /** Kyma's figures and no default of its own. */
  public static FunctionResourcesConfig kyma() {
    return new FunctionResourcesConfig(FunctionProfiles.KYMA, Optional.empty());
  }

  /**
   * Reads {@code yaml}; {@code source} names it in errors (a file's path). Throws {@link IllegalArgumentException}
   * naming the field at fault.
   */
  public static FunctionResourcesConfig parse(String yaml, String source) {
    if (yaml.length() > MAX_BYTES) {
      throw new IllegalArgumentException(source + ": larger than " + MAX_BYTES + " bytes");
    }
    Object document;
    try {
      LoaderOptions options = new LoaderOptions();
      options.setMaxAliasesForCollections(10);
      options.setAllowDuplicateKeys(false);
      document = new Yaml(new SafeConstructor(options)).load(yaml);
    } catch (YAMLException e) {
      throw new IllegalArgumentException(source + ": not YAML: " + e.getMessage(), e);
    }
    Map<?, ?> root = map(document, source, "the document");
    onlyKeys(root, source, "", Set.of("function"));
    Map<?, ?> function = map(root.get("function"), source, "function");
    onlyKeys(function, source, "function.", Set.of("resources"));
    Map<?, ?> resources = map(function.get("resources"), source, "function.resources");
    onlyKeys(resources, source, "function.resources.",
        Set.of("minRequestCpu", "minRequestMemory", "defaultPreset", "presets"));
    MINIMUMS.forEach((key, fixed) -> {
      if (resources.containsKey(key) && !sameQuantity(text(resources.get(key), source, "function.resources." + key),
          fixed)) {
        throw new IllegalArgumentException(source + ": function.resources." + key + " must be " + fixed
            + " (gitfn's smallest request is fixed at Kyma's default) or left out");
      }
    });
    List<Preset> presets = new ArrayList<>();
    if (resources.get("presets") != null) {
      Map<?, ?> named = map(resources.get("presets"), source, "function.resources.presets");
      for (Map.Entry<?, ?> entry : named.entrySet()) {
        String name = String.valueOf(entry.getKey());
        String field = "function.resources.presets." + name;
        Map<?, ?> figures = map(entry.getValue(), source, field);
        onlyKeys(figures, source, field + ".", Set.copyOf(FIGURES));
        List<String> values = new ArrayList<>();
        for (String figure : FIGURES) {
          values.add(quantity(figures.get(figure), source, field + "." + figure));
        }
        presets.add(new Preset(name, values.get(0), values.get(1), values.get(2), values.get(3)));
      }
    }
    ResourcePresets chosen;
    try {
      chosen = FunctionProfiles.KYMA.withFigures(presets);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(source + ": function.resources.presets: " + e.getMessage(), e);
    }
    Optional<String> defaultPreset = Optional.ofNullable(resources.get("defaultPreset"))
        .map(value -> text(value, source, "function.resources.defaultPreset"));
    defaultPreset.ifPresent(name -> {
      if (!chosen.names().contains(name)) {
        throw new IllegalArgumentException(source + ": function.resources.defaultPreset `" + name
            + "` is not one of " + String.join(", ", chosen.names()));
      }
    });
    return new FunctionResourcesConfig(chosen, defaultPreset);
  }

  private static Map<?, ?> map(Object value, String source, String field) {
    if (!(value instanceof Map<?, ?> map)) {
      throw new IllegalArgumentException(source + ": " + field + " must be a mapping"
          + (value == null ? ", and is missing" : ", not " + kind(value)));
    }
    return map;
  }

  /** What a value is, for an error: never the value itself, which may be large. */
  private static String kind(Object value) {
    return value instanceof Map ? "a mapping" : value instanceof List ? "a list" : "`" + abbreviated(value) + "`";
  }

  private static String abbreviated(Object value) {
    String text = String.valueOf(value);
    return text.length() <= 40 ? text : text.substring(0, 40) + "...";
  }

  private static void onlyKeys(Map<?, ?> map, String source, String prefix, Set<String> allowed) {
    for (Object key : map.keySet()) {
      if (!allowed.contains(String.valueOf(key))) {
        throw new IllegalArgumentException(source + ": " + prefix + abbreviated(key) + " is not a setting gitfn reads; it reads "
            + String.join(", ", allowed.stream().sorted().toList()));
      }
    }
  }

  private static String text(Object value, String source, String field) {
    if (!(value instanceof String) && !(value instanceof Number)) {
      throw new IllegalArgumentException(source + ": " + field + " must be a string"
          + (value == null ? ", and is missing" : ", not " + kind(value)));
    }
    return String.valueOf(value);
  }

  private static String quantity(Object value, String source, String field) {
    String text = text(value, source, field);
    try {
      BigDecimal amount = new Quantity(text).getNumericalAmount();
      if (amount.signum() <= 0) {
        throw new IllegalArgumentException("not positive");
      }
      return text;
    } catch (RuntimeException e) {
      throw new IllegalArgumentException(source + ": " + field + " `" + text
          + "` is not a positive Kubernetes quantity (such as 400m or 512Mi)", e);
    }
  }

  private static boolean sameQuantity(String a, String b) {
    try {
      return new Quantity(a).getNumericalAmount().compareTo(new Quantity(b).getNumericalAmount()) == 0;
    } catch (RuntimeException e) {
      return false;
    }
  }
}
