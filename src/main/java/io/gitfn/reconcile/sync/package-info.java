/**
 * Sync: makes the Functions in the cluster match one revision of a FunctionRepository. A revision the API server rejects writes nothing.
 *
 * <pre>{@code
 * SyncRequest request = new SyncRequest(namespace, name, revision, desiredFunctions,
 *     spec.prune, spec.allowEmpty, allowedTargetNamespaces);
 * SyncResult result = new FunctionSync(client).apply(request);   // created, updated, deleted, unchanged, writes
 * }</pre>
 *
 * <p>The rules, each pinned by {@code FunctionSyncIT}:
 *
 * <ul>
 *   <li>Server-side apply as field manager {@code gitfn}, forcing conflicts, with the label
 *       {@code gitfn.io/repository=<namespace>.<name>} and the annotations {@code gitfn.io/revision} and
 *       {@code gitfn.io/applied-hash}. Only name, namespace, labels, annotations and spec are applied.
 *   <li>A Function without a namespace goes into the repository's; another namespace must be allowed.
 *   <li>Every write is first sent with {@code dryRun=All}; one rejection and nothing is written
 *       ({@link io.gitfn.reconcile.sync.SyncRefusedException} with one reason per Function).
 *   <li>Prune deletes only Functions with this repository's label, in the namespaces it may write to. An empty
 *       revision is refused unless {@code allowEmpty}. A Function another repository manages is refused, a
 *       hand-made one (no label) is taken over.
 *   <li>A Function is written only when what gitfn applies changed (the applied hash) or the live object no
 *       longer holds it (drift). Unchanged Functions are not written, so they keep the revision annotation of
 *       the revision that last changed them.
 *   <li>{@code spec.replicas} is not applied when Git leaves it out or an HPA drives it (scaleConfig with min
 *       below max), so gitfn never owns it then.
 * </ul>
 *
 * <p>Pure parts ({@code Refusals}, {@code AppliedFunction}, {@code SyncPlanner}, {@code SubTree}) do no I/O;
 * {@code ClusterFunctions} is the only class that calls the API server.
 */
package io.gitfn.reconcile.sync;
