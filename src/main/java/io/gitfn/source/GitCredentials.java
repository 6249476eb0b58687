package io.gitfn.source;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Map;

/**
 * How gitfn authenticates to a repository. {@link #toString()} never shows a secret, and {@link #fingerprint()}
 * tells credentials apart without revealing them, so two sources of one URL with different credentials get
 * different mirrors.
 */
public sealed interface GitCredentials {

  /** A short hash of everything that makes these credentials what they are. */
  String fingerprint();

  /** Anonymous access. */
  record None() implements GitCredentials {
    @Override
    public String fingerprint() {
      return hash("none");
    }
  }

  /** HTTP basic auth; a forge token goes in {@code password}. */
  record Basic(String username, String password) implements GitCredentials {
    public Basic {
      if (username == null || password == null) {
        throw new IllegalArgumentException("basic credentials need a username and a password");
      }
    }

    @Override
    public String fingerprint() {
      return hash("basic", username, password);
    }

    @Override
    public String toString() {
      return "Basic[username=" + username + ", password=***]";
    }
  }

  /**
   * An SSH private key in PEM (OpenSSH, PKCS#8 or PKCS#1), its passphrase or null, and the known_hosts lines
   * that the server's host key must match.
   */
  record SshKey(String privateKeyPem, String passphrase, String knownHosts) implements GitCredentials {
    public SshKey {
      if (privateKeyPem == null || privateKeyPem.isBlank()) {
        throw new IllegalArgumentException("SSH credentials need a private key");
      }
      knownHosts = knownHosts == null ? "" : knownHosts;
    }

    @Override
    public String fingerprint() {
      return hash("key", privateKeyPem, passphrase == null ? "" : passphrase, knownHosts);
    }

    @Override
    public String toString() {
      return "SshKey[privateKey=***, passphrase=" + (passphrase == null ? "none" : "***")
          + ", knownHosts=" + knownHosts.lines().filter(l -> !l.isBlank()).count() + " lines]";
    }
  }

  /**
   * Credentials from a Secret in Kyma's format. {@code authType} {@code basic} reads {@code username} and
   * {@code password}; {@code key} reads {@code key} and an optional {@code password} (the key's passphrase),
   * and {@code known_hosts} when the Secret has it, else {@code defaultKnownHosts}.
   *
   * @param data the Secret's data, already base64-decoded
   */
  static GitCredentials fromSecret(String authType, Map<String, String> data, String defaultKnownHosts)
      throws SourceException {
    if (authType == null || authType.isBlank()) {
      return new None();
    }
    Map<String, String> values = data == null ? Map.of() : data;
    return switch (authType.trim().toLowerCase(Locale.ROOT)) {
      case "basic" -> new Basic(required(values, "username", authType), required(values, "password", authType));
      case "key" -> new SshKey(
          required(values, "key", authType),
          blankToNull(values.get("password")),
          values.containsKey("known_hosts") ? values.get("known_hosts") : defaultKnownHosts);
      default -> throw new SourceException(
          SourceException.Kind.AUTHENTICATION,
          "auth type '" + authType + "' is not one of basic, key");
    };
  }

  private static String required(Map<String, String> data, String key, String authType) throws SourceException {
    String value = data.get(key);
    if (value == null || value.isEmpty()) {
      throw new SourceException(
          SourceException.Kind.AUTHENTICATION,
          "the Secret for auth type '" + authType + "' has no '" + key + "' key; add it to the Secret's data");
    }
    return value;
  }

  private static String blankToNull(String value) {
    return value == null || value.isEmpty() ? null : value;
  }

  private static String hash(String... parts) {
    try {
      MessageDigest sha256 = MessageDigest.getInstance("SHA-256");
      for (String part : parts) {
        sha256.update(part.getBytes(StandardCharsets.UTF_8));
        sha256.update((byte) 0);
      }
      return HexFormat.of().formatHex(sha256.digest()).substring(0, 16);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java runtime has SHA-256", e);
    }
  }
}
