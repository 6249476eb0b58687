package io.gitfn.notify;

import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Keeps one comment of gitfn's on a pull request: finds it by its {@link CommentMarker} and edits it, or creates it.
 *
 * <p>The search reads at most {@value #MAX_PAGES} pages of comments (1,000 on GitHub, GitLab and Bitbucket Server,
 * 500 on Bitbucket Cloud; Gitea lists all at once, up to {@value ForgeReader#READ_LIMIT} bytes), so one upsert sends
 * at most 11 requests. gitfn comments when a preview first starts, so its comment is among the first a pull request
 * gets, except on Bitbucket Server, which lists newest first. Past the bound it fails instead of creating a comment:
 * a thread that long would get a new comment on every upsert, because the new one would be past the bound too.
 */
public final class PullRequestComments {

  static final int MAX_PAGES = 10;

  private final ForgeReader reader;
  private final CommitStatusSender sender;

  /** @param sender sends every request, with its timeouts, answer caps and redirect rule */
  public PullRequestComments(CommitStatusSender sender) {
    this.sender = Objects.requireNonNull(sender, "sender");
    this.reader = new ForgeReader(sender);
  }

  /**
   * Makes gitfn's comment marked {@code marker} on pull request {@code number} say {@code body}, below the marker.
   *
   * @param token a token that may read and write the pull request's comments
   * @throws ForgeException when the forge refuses, does not answer, or answers with something unusable, or the
   *     comment is not within the bound above; its result says whether trying again can help
   */
  public UpsertedComment upsert(ForgeRepository repository, String token, long number, CommentMarker marker,
      String body) {
    Objects.requireNonNull(marker, "marker");
    Objects.requireNonNull(body, "body");
    PullRequestApi api = PullRequestApi.of(repository.forge());
    String credential = Authorization.checked(token, repository.forge());
    String marked = marker.mark(repository.forge(), body);
    Optional<ForgeComment> existing = find(api, repository, credential, number, marker);
    if (existing.isPresent()) {
      ForgeComment comment = existing.get();
      if (sameText(comment.body(), marked)) {
        return new UpsertedComment(comment.id(), UpsertedComment.Change.UNCHANGED);
      }
      write(api.edit(repository, credential, number, comment, marked));
      return new UpsertedComment(comment.id(), UpsertedComment.Change.EDITED);
    }
    ForgeRequest create = api.create(repository, credential, number, marked);
    return new UpsertedComment(api.id(reader.read(create).json()), UpsertedComment.Change.CREATED);
  }

  private Optional<ForgeComment> find(PullRequestApi api, ForgeRepository repository, String credential,
      long number, CommentMarker marker) {
    long page = api.firstPage();
    for (int read = 1; ; read++) {
      ForgeReader.Page answer = reader.read(api.comments(repository, credential, number, page));
      for (JsonAnswer item : api.items(answer.json())) {
        Optional<ForgeComment> comment = api.comment(item).filter(c -> marker.marks(repository.forge(), c.body()));
        if (comment.isPresent()) {
          return comment;
        }
      }
      OptionalLong next = api.next(answer, page);
      if (next.isEmpty()) {
        return Optional.empty();
      }
      if (read == MAX_PAGES) {
        throw ForgeException.unusable(answer.json().request() + " answered", answer.answer().result().statusCode(),
            "pull request " + number + " has more than " + MAX_PAGES + " pages of comments and gitfn's comment "
                + marker.line(repository.forge()) + " is not in them; gitfn does not add another that it could "
                + "not find again");
      }
      page = next.getAsLong();
    }
  }

  /** Sends an edit; its answer is not read beyond whether the forge took it. */
  private void write(ForgeRequest request) {
    SendResult result = sender.send(request);
    if (result.outcome() != SendResult.Outcome.SENT) {
      throw ForgeException.failed(request, result);
    }
  }

  // Forges may store \r\n for \n, and drop trailing blanks; neither is a change worth an edit.
  private static boolean sameText(String stored, String wanted) {
    return stored.replace("\r\n", "\n").stripTrailing().equals(wanted.replace("\r\n", "\n").stripTrailing());
  }
}
