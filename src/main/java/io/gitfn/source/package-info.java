/**
 * Git sources: the only package that talks to Git.
 *
 * <p>A caller turns a spec into a {@link io.gitfn.source.RefSelector} and a {@link io.gitfn.source.GitCredentials},
 * gets the shared {@link io.gitfn.source.Mirror} from the {@link io.gitfn.source.MirrorCache}, and then:
 *
 * <pre>{@code
 * Revision revision = mirror.resolve(selector);   // one ls-remote, shared; none for a pinned commit
 * mirror.ensure(List.of(revision));               // a fetch only if the commit is not here yet
 * Snapshot snapshot = mirror.snapshot(revision);  // read files and tree ids at that commit
 * }</pre>
 *
 * <p>Every failure is a {@link io.gitfn.source.SourceException} whose kind says whether a retry can help. Pure
 * parts (selectors, the semver range matcher, backoff, the failure classifier) do no I/O and are unit-tested.
 */
package io.gitfn.source;
