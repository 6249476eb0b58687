/**
 * Local mode, {@code gitfn up}: the source and manifest layers of the controller, with each Function run as a
 * Node.js or Python process of gitfn's own runtime behind one reverse proxy, switched blue/green.
 *
 * <p>I/O: processes, files, HTTP. Nothing here talks to Kubernetes.
 */
package io.gitfn.local;
