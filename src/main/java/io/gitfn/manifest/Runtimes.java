package io.gitfn.manifest;

import io.gitfn.api.function.AuthType;
import io.gitfn.api.function.FunctionRuntime;
import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;

/** The names of runtimes and auth types as users write them, and the message for one that does not exist. */
public final class Runtimes {

  private Runtimes() {}

  public static Optional<FunctionRuntime> parse(String name) {
    return Arrays.stream(FunctionRuntime.values()).filter(r -> r.value().equals(name)).findFirst();
  }

  public static String unsupported(String name) {
    return "runtime `" + name + "` is not one of " + names();
  }

  /** {@code nodejs20, nodejs22, nodejs24, python312}: every runtime, deprecated ones too, as they still run. */
  public static String names() {
    return Arrays.stream(FunctionRuntime.values()).map(FunctionRuntime::value).collect(Collectors.joining(", "));
  }

  static boolean isNode(FunctionRuntime runtime) {
    return runtime != null && runtime.isNodejs();
  }

  static Optional<AuthType> parseAuth(String name) {
    return Arrays.stream(AuthType.values())
        .filter(t -> t.name().toLowerCase(Locale.ROOT).equals(name))
        .findFirst();
  }

  static String unsupportedAuth(String name) {
    return "auth type `" + name + "` is not one of basic, key";
  }
}
