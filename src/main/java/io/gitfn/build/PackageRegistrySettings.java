package io.gitfn.build;

import io.gitfn.api.function.FunctionRuntime;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * What in a package-registry config ({@code .npmrc}, {@code pip.conf}) can change which packages an install gets,
 * with every credential taken out: the digest that goes into a dependency layer's key.
 *
 * <p>The registry a package comes from decides its bytes, so two namespaces whose configs name different registries
 * must not share a dependency layer. The credentials do not decide them, and they must not reach a key: a key is an
 * image tag anyone who can list the registry reads, and a digest of a short token can be guessed back. So every line
 * whose setting names a credential ({@code _authToken}, {@code _auth}, {@code _password}, {@code username},
 * {@code password}, {@code cert}, {@code key}, {@code client-cert} ...) is dropped, and the user information of every
 * URL is dropped too, then the remaining settings are sorted and hashed. A config that differs only in credentials
 * gives the same digest.
 *
 * <p>The file comes from a tenant's Secret: it is read only up to {@link #MAX_BYTES}, and a longer one is refused
 * with a message naming the limit.
 */
public final class PackageRegistrySettings {

  /** npm and pip configs are a few hundred bytes; a Secret may hold 1 MiB. */
  public static final int MAX_BYTES = 64 * 1024;

  private static final Pattern CREDENTIAL = Pattern.compile(
      "(^|[:._-])(_?auth(token)?|_?password|username|user|token|cert|certfile|key|keyfile|client-cert|"
          + "client_cert|client-key|email|otp)$");

  private PackageRegistrySettings() {
  }

  /**
   * The digest of {@code config}'s settings without credentials, as 64 hex digits; the empty string when there is
   * no config.
   *
   * @throws IllegalArgumentException when the config is longer than {@link #MAX_BYTES}
   */
  public static String digest(FunctionRuntime runtime, String config) {
    if (config == null || config.isBlank()) {
      return "";
    }
    if (config.getBytes(StandardCharsets.UTF_8).length > MAX_BYTES) {
      throw new IllegalArgumentException("the package-registry " + RuntimeFiles.of(runtime).packageRegistryConfig()
          + " is longer than " + MAX_BYTES / 1024 + " KiB");
    }
    List<String> settings = new ArrayList<>();
    String section = "";
    for (String raw : config.split("\r?\n")) {
      String line = raw.strip();
      if (line.isEmpty() || line.startsWith("#") || line.startsWith(";")) {
        continue;
      }
      if (line.startsWith("[") && line.endsWith("]")) {
        section = line.toLowerCase(Locale.ROOT); // pip.conf: [global], [install]
        continue;
      }
      boolean continuation = !runtime.isNodejs() && Character.isWhitespace(raw.charAt(0));
      int equals = line.indexOf('=');
      // configparser, which pip reads its config with, takes `:` as well as `=`.
      int colon = runtime.isNodejs() ? -1 : line.indexOf(':');
      int split = equals < 0 ? colon : colon < 0 ? equals : Math.min(equals, colon);
      if (continuation || split < 0) {
        settings.add(section + " " + withoutUserInfo(line)); // pip's continuation lines: one more index URL
        continue;
      }
      String name = line.substring(0, split).strip().toLowerCase(Locale.ROOT);
      if (CREDENTIAL.matcher(lastPart(name)).find()) {
        continue;
      }
      settings.add(section + " " + withoutUserInfo(name) + "=" + withoutUserInfo(line.substring(split + 1).strip()));
    }
    settings.sort(null);
    MessageDigest sha256 = ContentKey.sha256();
    ContentKey.field(sha256, "gitfn-package-registry-settings");
    for (String setting : settings) {
      ContentKey.field(sha256, setting);
    }
    return HexFormat.of().formatHex(sha256.digest());
  }

  /** npm scopes a setting to a registry with a prefix: {@code //npm.example.com/:_authToken}. */
  private static String lastPart(String name) {
    int colon = name.lastIndexOf(':');
    return colon < 0 ? name : name.substring(colon + 1);
  }

  /** Every URL in {@code text} without its user information: {@code https://u:t@host/} is {@code https://host/}. */
  private static String withoutUserInfo(String text) {
    StringBuilder out = new StringBuilder();
    for (String word : text.split("\\s+")) {
      if (!out.isEmpty()) {
        out.append(' ');
      }
      out.append(urlWithoutUserInfo(word));
    }
    return out.toString();
  }

  private static String urlWithoutUserInfo(String word) {
    int scheme = word.indexOf("://");
    if (scheme < 0) {
      return word;
    }
    int authority = scheme + 3;
    int path = word.indexOf('/', authority);
    int at = word.lastIndexOf('@', path < 0 ? word.length() - 1 : path - 1);
    return at < authority ? word : word.substring(0, authority) + word.substring(at + 1);
  }

}
