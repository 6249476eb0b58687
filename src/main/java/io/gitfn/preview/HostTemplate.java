package io.gitfn.preview;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A FunctionRepository's {@code spec.previews.host}: the host a preview's routes take, such as
 * {@code {function}-pr-{number}.preview.example.com}. Production's routes name production's hosts; a preview that kept
 * them would fight production for its traffic, so each preview route gets this host instead.
 *
 * <p>It must name {@code {number}}, or two pull requests would share a host. Outside its placeholders it is a host
 * as DNS writes it, without a wildcard. The tenant writes it, so it is checked by its length before anything reads
 * it, and then in one pass, without regular expressions.
 *
 * @param template as the FunctionRepository has it; checked here, so that every HostTemplate is valid
 */
public record HostTemplate(String template) {

  /** The placeholders a template may name; {@code {namespace}} is the FunctionRepository's namespace. */
  public static final List<String> PLACEHOLDERS = List.of("{function}", "{number}", "{repository}", "{namespace}");

  private static final String FIELD = "spec.previews.host";
  private static final int MAX_HOST = 253;
  private static final int MAX_LABEL = 63;

  public HostTemplate {
    Objects.requireNonNull(template, "template");
    if (template.length() > MAX_HOST) {
      throw new IllegalArgumentException(FIELD + " is " + template.length() + " characters long; a host has at most "
          + MAX_HOST);
    }
    boolean numbered = false;
    for (int i = 0; i < template.length(); ) {
      int c = template.codePointAt(i);
      if (c == '{') {
        int close = template.indexOf('}', i);
        if (close < 0) {
          throw invalid(template, "has `{` at character " + (i + 1) + " without a `}` to close it");
        }
        String placeholder = template.substring(i, close + 1);
        if (!PLACEHOLDERS.contains(placeholder)) {
          throw invalid(template, "has the placeholder `" + placeholder + "`; it takes " + String.join(", ",
              PLACEHOLDERS));
        }
        numbered |= placeholder.equals("{number}");
        i = close + 1;
      } else if (c == '*') {
        throw invalid(template, "has `*`: a preview's host is one host, not a wildcard");
      } else if (!hostCharacter(c) && c != '.') {
        throw invalid(template, "has `" + Character.toString(c) + "` at character " + (i + 1) + "; outside its"
            + " placeholders it takes lower-case letters, digits, `-` and `.`");
      } else {
        i += Character.charCount(c);
      }
    }
    if (!numbered) {
      throw invalid(template, "does not name {number}: the previews of two pull requests would share a host");
    }
    if (template.startsWith(".") || template.startsWith("-")) {
      throw invalid(template, "starts with `" + template.charAt(0) + "`; a host starts with a letter or digit");
    }
    if (template.endsWith(".") || template.endsWith("-")) {
      throw invalid(template, "ends with `" + template.charAt(template.length() - 1) + "`; a host ends with a letter"
          + " or digit");
    }
    if (template.contains("..")) {
      throw invalid(template, "has an empty label (`..`)");
    }
    if (template.contains(".-") || template.contains("-.")) {
      throw invalid(template, "has a label that starts or ends with `-`");
    }
  }

  /**
   * The template of {@code spec.previews.host}.
   *
   * @throws IllegalArgumentException saying what is wrong with it
   */
  public static HostTemplate parse(String template) {
    return new HostTemplate(template);
  }

  /**
   * The host of a route to {@code function} in the preview of pull request {@code number} of the FunctionRepository
   * {@code namespace/repository}.
   *
   * @throws IllegalArgumentException when that host is not a DNS-1123 subdomain, naming the values that made it so
   */
  public String host(String function, long number, String repository, String namespace) {
    String host = fill(function, Long.toString(number), repository, namespace);
    whyNotASubdomain(host).ifPresent(why -> {
      throw new IllegalArgumentException(FIELD + " `" + template + "` gives `" + host + "` for function `" + function
          + "`, pull request " + number + ", repository `" + repository + "` and namespace `" + namespace + "`, which"
          + " is not a DNS-1123 subdomain: " + why);
    });
    return host;
  }

  /** One pass, so that a value that looks like a placeholder stays as it is. */
  private String fill(String function, String number, String repository, String namespace) {
    StringBuilder host = new StringBuilder();
    for (int i = 0; i < template.length(); ) {
      if (template.charAt(i) != '{') {
        host.append(template.charAt(i++));
        continue;
      }
      int close = template.indexOf('}', i);
      host.append(switch (template.substring(i, close + 1)) {
        case "{function}" -> Objects.requireNonNull(function, "function");
        case "{number}" -> number;
        case "{repository}" -> Objects.requireNonNull(repository, "repository");
        default -> Objects.requireNonNull(namespace, "namespace");
      });
      i = close + 1;
    }
    return host.toString();
  }

  private static Optional<String> whyNotASubdomain(String host) {
    if (host.length() > MAX_HOST) {
      return Optional.of("it has " + host.length() + " characters, more than " + MAX_HOST);
    }
    for (String label : host.split("\\.", -1)) {
      if (label.isEmpty()) {
        return Optional.of("it has an empty label");
      }
      if (label.length() > MAX_LABEL) {
        return Optional.of("its label `" + label + "` has " + label.length() + " characters, more than " + MAX_LABEL);
      }
      for (int i = 0; i < label.length(); i++) {
        if (!hostCharacter(label.charAt(i))) {
          return Optional.of("its label `" + label + "` has `" + label.charAt(i) + "`; a label takes lower-case"
              + " letters, digits and `-`");
        }
      }
      if (label.startsWith("-") || label.endsWith("-")) {
        return Optional.of("its label `" + label + "` starts or ends with `-`");
      }
    }
    return Optional.empty();
  }

  private static boolean hostCharacter(int c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-';
  }

  private static IllegalArgumentException invalid(String template, String why) {
    return new IllegalArgumentException(FIELD + " `" + template + "` " + why);
  }

  /** The template, as the FunctionRepository has it. */
  @Override
  public String toString() {
    return template;
  }
}
