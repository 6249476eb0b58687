package io.gitfn.api;

import java.util.Optional;
import java.util.regex.Pattern;

/** Kubernetes' syntax rules for names, label keys and values, and annotation keys, with what is wrong. */
public final class KubernetesNames {

  private static final Pattern DATA_KEY = Pattern.compile("[-._a-zA-Z0-9]+");
  private static final Pattern DNS_1035_LABEL = Pattern.compile("[a-z]([-a-z0-9]*[a-z0-9])?");
  private static final Pattern DNS_1123_LABEL = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?");
  private static final Pattern DNS_1123_SUBDOMAIN =
      Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");
  private static final Pattern QUALIFIED_NAME = Pattern.compile("([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]");
  private static final Pattern C_IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

  private KubernetesNames() {}

  /** What is wrong with {@code name} as a Function name (a DNS-1035 label), or empty when nothing is. */
  public static Optional<String> functionName(String name) {
    if (name.length() > 63) {
      return Optional.of("name `" + name + "` is " + name.length() + " characters; a Function name has at most 63");
    }
    if (!DNS_1035_LABEL.matcher(name).matches()) {
      return Optional.of("name `" + name + "` is not a DNS-1035 label: use lower-case letters, digits and '-',"
          + " start with a letter and end with a letter or digit");
    }
    return Optional.empty();
  }

  /** Why {@code namespace} cannot name a namespace (a DNS-1123 label of at most 63 characters), if it cannot. */
  public static Optional<String> namespace(String namespace) {
    if (namespace.length() > 63 || !DNS_1123_LABEL.matcher(namespace).matches()) {
      return Optional.of("`" + namespace + "` is not a namespace name: at most 63 lower-case letters, digits and"
          + " '-', starting and ending with a letter or digit");
    }
    return Optional.empty();
  }

  public static boolean isDns1123Subdomain(String name) {
    return name.length() <= 253 && DNS_1123_SUBDOMAIN.matcher(name).matches();
  }

  /**
   * Whether {@code key} is a key of a ConfigMap's or a Secret's data, as the API server checks it: at most 253
   * letters, digits, '-', '_' and '.', other than {@code .} and not starting with {@code ..} (mounted, a key becomes
   * a file name).
   */
  public static boolean isDataKey(String key) {
    return key.length() <= 253 && DATA_KEY.matcher(key).matches() && !key.equals(".") && !key.startsWith("..");
  }

  public static boolean isCIdentifier(String name) {
    return C_IDENTIFIER.matcher(name).matches();
  }

  /** What is wrong with {@code key} as a label or annotation key ({@code [prefix/]name}), or empty. */
  public static Optional<String> qualifiedKey(String key) {
    String name = key;
    int slash = key.indexOf('/');
    if (slash >= 0) {
      String prefix = key.substring(0, slash);
      name = key.substring(slash + 1);
      if (prefix.isEmpty() || !isDns1123Subdomain(prefix)) {
        return Optional.of("key `" + key + "` has a prefix that is not a DNS subdomain (like example.com)");
      }
    }
    if (name.isEmpty() || name.length() > 63 || !QUALIFIED_NAME.matcher(name).matches()) {
      return Optional.of("key `" + key + "` is not a valid name: at most 63 letters, digits, '-', '_' or '.',"
          + " starting and ending with a letter or digit, after an optional DNS prefix and '/'");
    }
    return Optional.empty();
  }

  /** What is wrong with {@code value} as a label value, or empty. */
  public static Optional<String> labelValue(String value) {
    if (value.isEmpty()) {
      return Optional.empty();
    }
    if (value.length() > 63 || !QUALIFIED_NAME.matcher(value).matches()) {
      return Optional.of("value `" + value + "` is not a valid label value: at most 63 letters, digits, '-', '_'"
          + " or '.', starting and ending with a letter or digit");
    }
    return Optional.empty();
  }

  public static boolean isDns1123Label(String name) {
    return name.length() <= 63 && DNS_1123_LABEL.matcher(name).matches();
  }
}
