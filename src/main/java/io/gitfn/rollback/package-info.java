/**
 * Rolling a Function back, the two ways {@code gitfn rollback function} offers.
 *
 * <p>The GitOps way restores the Function's files in Git to an earlier commit and pushes that as a new commit
 * ({@link io.gitfn.rollback.GitRevert}); the controller then finds the earlier content key and re-points the
 * Deployment to the image it already built. It runs the user's own {@code git} client, not JGit, so the user's
 * credential helpers, SSH agent, identity and hooks apply: the controller's credentials only read, and the
 * commit is the user's. That is also why this is not in {@code io.gitfn.source}, which holds the controller's
 * read-only access to Git.
 *
 * <p>The other way pins the Function to a revision of its history ({@link io.gitfn.rollback.Pins} reads the pin,
 * {@link io.gitfn.request.ControllerRequests} writes it): the controller runs that revision's image until the pin is
 * removed, whatever Git says.
 */
package io.gitfn.rollback;
