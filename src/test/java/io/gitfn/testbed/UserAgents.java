package io.gitfn.testbed;

/** How the test bed tells clients apart: by the product name their User-Agent starts with. */
public final class UserAgents {

  /** {@code gitfn} for {@code gitfn/0.1.0 (linux)}, {@code git} for {@code git/2.39.5}; "(none)" when blank. */
  public static String product(String userAgent) {
    return userAgent == null || userAgent.isBlank() ? "(none)" : userAgent.strip().split("[/ ]", 2)[0];
  }

  private UserAgents() {}
}
