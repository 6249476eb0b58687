/**
 * Commit statuses on the forges: turns "this commit is now pending, success, failure or error" into the request
 * each forge's commit-status API expects, and sends it. {@link io.gitfn.notify.ForgeRepository} reads a repository
 * URL (https, ssh or scp-like) into the forge, its API base and the repository's names there;
 * {@link io.gitfn.notify.ForgeRepository#request} builds a {@link io.gitfn.notify.ForgeRequest} for a
 * {@link io.gitfn.notify.CommitStatus} (GitHub and GitHub Enterprise, GitLab, Gitea, Forgejo, Bitbucket Cloud,
 * Bitbucket Server/Data Center); {@link io.gitfn.notify.GenericNotification} builds a signed JSON notification for
 * any other receiver. Building is pure and unit-tested; {@link io.gitfn.notify.CommitStatusSender} is the one class
 * that does I/O, and it answers every network failure with a {@link io.gitfn.notify.SendResult} instead of an
 * exception. {@link io.gitfn.notify.OpenPullRequests} and {@link io.gitfn.notify.PullRequestComments} read a
 * forge's open pull requests and keep one marked comment on one, through the same sender, bounded in pages, items
 * and bytes, for previews (io.gitfn.reconcile.repository.PreviewForge). When to send, and what to do with a result,
 * is the reconcilers' business, not this package's.
 */
package io.gitfn.notify;
