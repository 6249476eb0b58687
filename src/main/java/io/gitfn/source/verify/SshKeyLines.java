package io.gitfn.source.verify;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.PublicKey;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import org.apache.sshd.common.util.buffer.ByteArrayBuffer;

/**
 * Reads SSH public keys line by line: {@code authorized_keys} lines ({@code [options] type base64 [comment]}) from
 * {@code *.sshpub} entries, and {@code allowed_signers} lines ({@code principals [options] type base64 [comment]}).
 *
 * <p>{@code authorized_keys} options restrict logins, not signatures, so they are read past and ignored. In
 * {@code allowed_signers}, {@code namespaces}, {@code valid-after} and {@code valid-before} are kept; an option
 * ssh-keygen would not accept either, or {@code cert-authority} (gitfn verifies plain keys, not certificates),
 * stops the Secret. Times without a trailing {@code Z} are read as UTC: the controller has no user time zone.
 */
final class SshKeyLines {

  static final Set<String> KEY_TYPES = Set.of(
      "ssh-ed25519", "ssh-rsa", "ecdsa-sha2-nistp256", "ecdsa-sha2-nistp384", "ecdsa-sha2-nistp521",
      "sk-ssh-ed25519@openssh.com", "sk-ecdsa-sha2-nistp256@openssh.com");

  private SshKeyLines() {}

  static List<SshKey> authorizedKeys(String entry, byte[] data, int room) throws KeyDataException {
    return parse(entry, data, room, false);
  }

  static List<SshKey> allowedSigners(String entry, byte[] data, int room) throws KeyDataException {
    return parse(entry, data, room, true);
  }

  private static List<SshKey> parse(String entry, byte[] data, int room, boolean withPrincipals)
      throws KeyDataException {
    List<SshKey> keys = new ArrayList<>();
    String[] lines = new String(data, StandardCharsets.UTF_8).split("\n", -1);
    for (int i = 0; i < lines.length; i++) {
      String line = lines[i].strip();
      if (line.isEmpty() || line.startsWith("#")) {
        continue;
      }
      String where = entry + ":" + (i + 1);
      if (keys.size() >= room) {
        throw new KeyDataException("entry " + entry + ", line " + (i + 1) + " brings the Secret over "
            + VerificationKeys.MAX_KEYS + " keys");
      }
      try {
        keys.add(line(line, withPrincipals, where));
      } catch (IllegalArgumentException e) {
        throw new KeyDataException("entry " + entry + ", line " + (i + 1) + ": " + e.getMessage());
      }
    }
    return keys;
  }

  private static SshKey line(String line, boolean withPrincipals, String where) {
    List<String> tokens = tokens(line);
    int at = 0;
    List<String> principals = List.of();
    if (withPrincipals) {
      principals = List.of(unquote(tokens.get(at++)).split(","));
    }
    String options = "";
    if (at < tokens.size() && !KEY_TYPES.contains(tokens.get(at)) && at + 1 < tokens.size()
        && KEY_TYPES.contains(tokens.get(at + 1))) {
      options = tokens.get(at++);
    }
    if (at + 1 >= tokens.size()) {
      throw new IllegalArgumentException(withPrincipals
          ? "expected 'principals [options] type base64-key [comment]'"
          : "expected '[options] type base64-key [comment]'");
    }
    String type = tokens.get(at++);
    if (!KEY_TYPES.contains(type)) {
      throw new IllegalArgumentException("'" + abbreviate(type) + "' is not an SSH key type gitfn verifies ("
          + String.join(", ", KEY_TYPES.stream().sorted().toList()) + ")");
    }
    String blob = tokens.get(at++);
    String comment = String.join(" ", tokens.subList(at, tokens.size()));
    byte[] wire;
    try {
      wire = Base64.getDecoder().decode(blob);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("the " + type + " key is not base64");
    }
    PublicKey key = decode(type, wire);
    Set<String> namespaces = new HashSet<>();
    Optional<Instant> validAfter = Optional.empty();
    Optional<Instant> validBefore = Optional.empty();
    for (String option : splitOptions(options)) {
      int eq = option.indexOf('=');
      String name = (eq < 0 ? option : option.substring(0, eq)).toLowerCase(Locale.ROOT);
      String value = eq < 0 ? "" : unquote(option.substring(eq + 1));
      if (!withPrincipals) {
        continue;
      }
      switch (name) {
        case "namespaces" -> namespaces.addAll(List.of(value.split(",")));
        case "valid-after" -> validAfter = Optional.of(time(value));
        case "valid-before" -> validBefore = Optional.of(time(value));
        case "cert-authority" -> throw new IllegalArgumentException(
            "cert-authority: gitfn verifies signatures by plain keys, not SSH certificates; list the signers' keys");
        default -> throw new IllegalArgumentException("unknown option '" + abbreviate(name) + "'");
      }
    }
    return new SshKey(
        type, blob, comment, principals, namespaces, validAfter, validBefore, fingerprint(wire), where, key);
  }

  private static PublicKey decode(String type, byte[] wire) {
    ByteArrayBuffer buffer = new ByteArrayBuffer(wire);
    try {
      String embedded = buffer.getString();
      if (!embedded.equals(type)) {
        throw new IllegalArgumentException("the key says it is " + abbreviate(embedded) + ", the line says " + type);
      }
      return new ByteArrayBuffer(wire).getRawPublicKey();
    } catch (IllegalArgumentException e) {
      throw e;
    } catch (Exception e) {
      throw new IllegalArgumentException("the " + type + " key does not decode (" + e.getMessage() + ")");
    }
  }

  /** {@code SHA256:} and the unpadded base64 of the wire blob's SHA-256, as OpenSSH prints it. */
  static String fingerprint(byte[] wire) {
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256").digest(wire);
      return "SHA256:" + Base64.getEncoder().withoutPadding().encodeToString(digest);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK has SHA-256", e);
    }
  }

  // Whitespace separates tokens except inside double quotes, where a backslash escapes a quote.
  private static List<String> tokens(String line) {
    List<String> tokens = new ArrayList<>();
    StringBuilder current = new StringBuilder();
    boolean quoted = false;
    for (int i = 0; i < line.length(); i++) {
      char c = line.charAt(i);
      if (c == '\\' && quoted && i + 1 < line.length()) {
        current.append(c).append(line.charAt(++i));
      } else if (c == '"') {
        quoted = !quoted;
        current.append(c);
      } else if (Character.isWhitespace(c) && !quoted) {
        if (!current.isEmpty()) {
          tokens.add(current.toString());
          current.setLength(0);
        }
      } else {
        current.append(c);
      }
    }
    if (quoted) {
      throw new IllegalArgumentException("a quote is not closed");
    }
    if (!current.isEmpty()) {
      tokens.add(current.toString());
    }
    return tokens;
  }

  private static List<String> splitOptions(String options) {
    List<String> parts = new ArrayList<>();
    if (options.isEmpty()) {
      return parts;
    }
    StringBuilder current = new StringBuilder();
    boolean quoted = false;
    for (int i = 0; i < options.length(); i++) {
      char c = options.charAt(i);
      if (c == '\\' && quoted && i + 1 < options.length()) {
        current.append(c).append(options.charAt(++i));
      } else if (c == '"') {
        quoted = !quoted;
        current.append(c);
      } else if (c == ',' && !quoted) {
        parts.add(current.toString());
        current.setLength(0);
      } else {
        current.append(c);
      }
    }
    parts.add(current.toString());
    return parts;
  }

  private static String unquote(String text) {
    if (text.length() >= 2 && text.startsWith("\"") && text.endsWith("\"")) {
      return text.substring(1, text.length() - 1).replace("\\\"", "\"");
    }
    return text;
  }

  private static Instant time(String value) {
    boolean utc = value.endsWith("Z") || value.endsWith("z");
    String digits = utc ? value.substring(0, value.length() - 1) : value;
    try {
      return switch (digits.length()) {
        case 8 -> LocalDate.parse(digits, DateTimeFormatter.BASIC_ISO_DATE).atStartOfDay().toInstant(ZoneOffset.UTC);
        case 12 -> LocalDateTime.parse(digits, DateTimeFormatter.ofPattern("yyyyMMddHHmm")).toInstant(ZoneOffset.UTC);
        case 14 -> LocalDateTime.parse(digits, DateTimeFormatter.ofPattern("yyyyMMddHHmmss"))
            .toInstant(ZoneOffset.UTC);
        default -> throw new IllegalArgumentException("time '" + abbreviate(value)
            + "' is not YYYYMMDD, YYYYMMDDHHMM or YYYYMMDDHHMMSS");
      };
    } catch (DateTimeParseException e) {
      throw new IllegalArgumentException("time '" + abbreviate(value) + "' is not a date");
    }
  }

  private static String abbreviate(String text) {
    return text.length() <= 40 ? text : text.substring(0, 40) + "…";
  }
}
