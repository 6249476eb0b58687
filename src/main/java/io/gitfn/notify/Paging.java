package io.gitfn.notify;

import java.net.URI;
import java.util.Arrays;
import java.util.OptionalLong;
import java.util.regex.Pattern;

/**
 * The ways forges say another page follows. gitfn asks for the next page by number itself and never follows a URL
 * the forge sends: a hostile answer could point that URL, and the token with it, anywhere.
 */
final class Paging {

  private static final Pattern NEXT = Pattern.compile("rel=\"?next\"?");

  private Paging() {}

  /** {@code page + 1} when the Link header has a {@code rel="next"} (GitHub, GitLab, Gitea). */
  static OptionalLong byLinkHeader(ForgeReader.Page page, long current) {
    boolean more = page.answer().headers().allValues("Link").stream()
        .flatMap(value -> Arrays.stream(value.split(",")))
        .anyMatch(link -> NEXT.matcher(link).find());
    return more ? OptionalLong.of(current + 1) : OptionalLong.empty();
  }

  /** {@code page + 1} when the answer has a {@code next} link (Bitbucket Cloud). */
  static OptionalLong byNextField(ForgeReader.Page page, long current) {
    return page.json().optionalText("next").isPresent() ? OptionalLong.of(current + 1) : OptionalLong.empty();
  }

  /**
   * Bitbucket Server's {@code nextPageStart} unless {@code isLastPage}. A start that does not move forward would
   * read the same page for ever, and is an error.
   */
  static OptionalLong byNextStart(ForgeReader.Page page, long start) {
    JsonAnswer json = page.json();
    if (json.flag(true, "isLastPage")) {
      return OptionalLong.empty();
    }
    long next = json.number("nextPageStart");
    if (next <= start) {
      throw ForgeException.unusable(json.request() + " answered", json.statusCode(),
          "nextPageStart " + next + " does not move past start " + start);
    }
    return OptionalLong.of(next);
  }

  /** {@code endpoint?query}; the query is gitfn's own words and numbers, which need no encoding. */
  static URI withQuery(URI endpoint, String query) {
    return URI.create(endpoint + "?" + query);
  }
}
