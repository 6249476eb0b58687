/**
 * Git sources: the only package that talks to Git.
 *
 * <p>A caller turns a spec into a {@link io.gitfn.source.RepositoryUrl}, a {@link io.gitfn.source.RefSelector} and
 * a {@link io.gitfn.source.GitCredentials}, and reads through the one {@link io.gitfn.source.MirrorCache}:
 *
 * <pre>{@code
 * Snapshot snapshot = mirrors.read(url, credentials, selector);  // resolve, fetch if missing, snapshot
 * Snapshot known = mirrors.read(url, credentials, revision);     // a revision the watcher resolved
 * }</pre>
 *
 * <p>Under that porcelain, each {@link io.gitfn.source.Mirror} shares one {@code ls-remote} and one fetch between
 * concurrent callers ({@code resolve}, {@code ensure}, {@code snapshot}); the watcher uses those directly, to check
 * many sources with one {@code ls-remote}.
 *
 * <p>Every failure is a {@link io.gitfn.source.SourceException} whose kind says whether a retry can help. Pure
 * parts (selectors, the semver range matcher, backoff, the failure classifier) do no I/O and are unit-tested.
 */
package io.gitfn.source;
