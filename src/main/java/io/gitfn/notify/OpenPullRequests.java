package io.gitfn.notify;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * Lists a repository's open pull requests on its forge: the fallback for webhooks that never came.
 *
 * <p>It reads at most {@value #MAX_PAGES} pages and {@value #MAX_PULL_REQUESTS} pull requests, and fails past
 * either rather than answer with part of the list: a caller that closes the previews of pull requests no longer
 * listed must not close those that merely did not fit. A thousand open pull requests is far beyond a repository of
 * Functions; 20 pages hold a thousand at the smallest page gitfn asks for (50), and keep a forge that always says
 * "one more page" to 20 requests.
 */
public final class OpenPullRequests {

  static final int MAX_PAGES = 20;
  static final int MAX_PULL_REQUESTS = 1000;

  private final ForgeReader reader;

  /** @param sender sends every request, with its timeouts, answer caps and redirect rule */
  public OpenPullRequests(CommitStatusSender sender) {
    this.reader = new ForgeReader(Objects.requireNonNull(sender, "sender"));
  }

  /**
   * The open pull requests of {@code repository}, each once, in the order the forge listed them.
   *
   * @param token a token that may read the repository's pull requests
   * @throws ForgeException when the forge refuses, does not answer, answers with something unusable, or has more
   *     than the bounds above; its result says whether asking again can help
   */
  public List<OpenPullRequest> list(ForgeRepository repository, String token) {
    PullRequestApi api = PullRequestApi.of(repository.forge());
    String credential = Authorization.checked(token, repository.forge());
    // By number: a pull request opened while gitfn pages can push one it read already onto the next page.
    Map<Long, OpenPullRequest> found = new LinkedHashMap<>();
    long page = api.firstPage();
    for (int read = 1; ; read++) {
      ForgeRequest request = api.openPullRequests(repository, credential, page);
      ForgeReader.Page answer = reader.read(request);
      for (JsonAnswer item : api.items(answer.json())) {
        OpenPullRequest pullRequest = api.pullRequest(item);
        found.put(pullRequest.number(), pullRequest);
        if (found.size() > MAX_PULL_REQUESTS) {
          throw tooMany(repository, answer, "more than " + MAX_PULL_REQUESTS + " open pull requests");
        }
      }
      OptionalLong next = api.next(answer, page);
      if (next.isEmpty()) {
        return List.copyOf(found.values());
      }
      if (read == MAX_PAGES) {
        throw tooMany(repository, answer, "more than " + MAX_PAGES + " pages of open pull requests");
      }
      page = next.getAsLong();
    }
  }

  private static ForgeException tooMany(ForgeRepository repository, ForgeReader.Page answer, String what) {
    return ForgeException.unusable(answer.json().request() + " answered", answer.answer().result().statusCode(),
        repository.forge().title() + " repository " + repository.fullPath() + " has " + what
            + ", more than gitfn reads; it lists none rather than some");
  }
}
