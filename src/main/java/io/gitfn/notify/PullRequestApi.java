package io.gitfn.notify;

import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * One forge's pull-request and comment API: the requests to send and how to read their answers. Like the status
 * classes, the implementations only build and read; {@link OpenPullRequests} and {@link PullRequestComments} send,
 * through the one {@link CommitStatusSender}, and bound how much they read.
 */
interface PullRequestApi {

  /** The first page: page 1, or Bitbucket Server's start 0. */
  long firstPage();

  /** A page of the repository's open pull requests. */
  ForgeRequest openPullRequests(ForgeRepository repository, String token, long page);

  /** A page of the comments on pull request {@code number}, oldest first where the forge lets gitfn choose. */
  ForgeRequest comments(ForgeRepository repository, String token, long number, long page);

  ForgeRequest create(ForgeRepository repository, String token, long number, String body);

  ForgeRequest edit(ForgeRepository repository, String token, long number, ForgeComment comment, String body);

  /** The items of a page: the answer itself, or Bitbucket's {@code values}. */
  List<JsonAnswer> items(JsonAnswer page);

  OpenPullRequest pullRequest(JsonAnswer item);

  /** The comment an item is, or empty when it is none gitfn could have written (a system note, a file comment). */
  Optional<ForgeComment> comment(JsonAnswer item);

  /** The id of the comment a create answered with. */
  String id(JsonAnswer created);

  /** The page after {@code current}, or empty when {@code page} is the last. */
  OptionalLong next(ForgeReader.Page page, long current);

  static PullRequestApi of(Forge forge) {
    return switch (forge) {
      case GITHUB -> new GitHubPullRequests();
      case GITLAB -> new GitLabPullRequests();
      case GITEA, FORGEJO -> new GiteaPullRequests();
      case BITBUCKET_CLOUD -> new BitbucketCloudPullRequests();
      case BITBUCKET_SERVER -> new BitbucketServerPullRequests();
    };
  }
}
