// Lends the runtime's own packages (axios, cloudevents, OpenTelemetry, ...) to the handler, as Kyma's image does
// by putting the handler below the runtime's folder. A handler's own package of the same name wins: the runtime's
// node_modules is searched only after every node_modules from the handler's folder up.
import Module from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const runtimeDir = fileURLToPath(new URL('..', import.meta.url));

/** Makes `require` and `import` of a bare package name fall back to the runtime's node_modules. Call it once,
 * before the handler is imported. */
export function lendRuntimePackages() {
  // CommonJS: NODE_PATH's folders are searched after the node_modules walk. Node reads the variable once at start
  // (Module.globalPaths is a copy, for show), so it is read again, then put back as it was: a process the handler
  // starts does not get it.
  const before = process.env.NODE_PATH;
  process.env.NODE_PATH = [before, path.join(runtimeDir, 'node_modules')].filter(Boolean).join(path.delimiter);
  Module._initPaths();
  if (before === undefined) delete process.env.NODE_PATH;
  else process.env.NODE_PATH = before;

  // ES modules ignore NODE_PATH: a resolve hook retries a bare name that is not found from the runtime's folder.
  // registerHooks (Node.js 22.15 and later) runs in this thread; register (Node.js 20.6) starts a loader thread.
  const parentURL = pathToFileURL(path.join(runtimeDir, 'server.mjs')).href;
  if (typeof Module.registerHooks === 'function') {
    Module.registerHooks({ resolve: fallbackResolveSync(parentURL) });
  } else {
    Module.register('./resolve-hook.mjs', import.meta.url, { data: { parentURL } });
  }
}

/** The resolve hook of registerHooks: the same as resolve-hook.mjs's, synchronous. */
function fallbackResolveSync(parentURL) {
  return (specifier, context, nextResolve) => {
    try {
      return nextResolve(specifier, context);
    } catch (err) {
      if (err?.code !== 'ERR_MODULE_NOT_FOUND' || !isBare(specifier)) throw err;
      try {
        return nextResolve(specifier, { ...context, parentURL });
      } catch {
        throw err; // the handler's own error: "Cannot find package 'x' imported from <handler>"
      }
    }
  };
}

/** A package name, maybe with a subpath: not relative, absolute, a URL (node:, file:, data:) or a #import. */
export function isBare(specifier) {
  return !/^(\.{0,2}\/|#|[a-zA-Z][a-zA-Z\d+.-]*:)/.test(specifier);
}
